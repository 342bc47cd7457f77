import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

export interface LeaseTiming {
  /** How long a lease lasts without renewal; another replica takes over after it (≤ 30 s with the defaults). */
  ttlMs: number;
  /** Renewal and takeover scan period. */
  tickMs: number;
}

/** The lease columns of the caller's rows (see SqlLeases): who holds each row's work, and until when. */
export interface LeaseStore {
  /** Extends the leases `owner` holds on rows that still want a holder; answers the ids it still holds. */
  renew(owner: string, ttlMs: number): Promise<string[]>;
  /** Takes rows without a live holder (never held, expired or released); `id` narrows it to one, `force` ignores live leases. */
  claim(owner: string, ttlMs: number, options?: { id?: string; force?: boolean }): Promise<string[]>;
  /** Released, not left to expire: another replica takes the rows over at its next tick. */
  release(owner: string, id?: string): Promise<void>;
}

/** The work a replica runs for a row it holds (a connection it keeps open, a socket). */
export interface Leased {
  /** True once it ended, by itself (it gave up) or because it was stopped. */
  readonly isStopped: boolean;
  start(): void | Promise<void>;
}

export interface LeaseLoopOptions<T extends Leased> {
  store: LeaseStore;
  timing: LeaseTiming;
  /** The embedded process is the only replica: its first tick takes leases left by its previous run without waiting. */
  exclusive: boolean;
  /** Names the loop in its logs: '<label> lease tick failed'. */
  label: string;
  log: Logger;
  /** The work for a row just leased, not started yet. */
  create(id: string): T;
  /** Ends the work: `closing` when this replica halts, otherwise its lease was lost or it ended by itself. */
  stop(work: T, closing: boolean): void | Promise<void>;
  /** After each tick's renewals and claims. */
  afterTick?(): void;
}

/**
 * The work of the rows this replica holds under a lease: every `tickMs` it renews the leases it holds, stops
 * the work whose lease was lost (or that ended by itself), and takes free or expired rows and starts their
 * work. Closing stops the work and releases the leases, so another replica takes the rows at once; halting
 * leaves the leases to expire, as a killed replica would.
 */
export class LeaseLoop<T extends Leased> {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, T>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private halted = false;

  constructor(private readonly options: LeaseLoopOptions<T>) {}

  get closed(): boolean {
    return this.halted;
  }

  /** Takes the rows nobody holds at once, then keeps renewing and taking over every tick. */
  start(): void {
    this.ticking = this.tick(this.options.exclusive);
    this.timer = setInterval(() => {
      if (!this.ticking) this.ticking = this.tick(false);
    }, this.options.timing.tickMs);
    this.timer.unref();
  }

  /** No tick starts once this is called (synchronously); then the work under way is stopped. Leases stay until they expire. */
  async halt(): Promise<void> {
    this.halted = true;
    clearInterval(this.timer);
    await this.ticking;
    const works = [...this.running.values()];
    this.running.clear();
    await Promise.all(works.map((work) => this.options.stop(work, true)));
  }

  /** A graceful stop: halted, then the leases released. */
  async close(): Promise<void> {
    await this.halt();
    await this.release().catch((error: unknown) => this.options.log.warn({ err: error }, `${this.options.label} leases not released`));
  }

  get(id: string): T | undefined {
    return this.running.get(id);
  }

  values(): IterableIterator<T> {
    return this.running.values();
  }

  /** Whether this replica runs the row's work (and it has not ended). */
  holds(id: string): boolean {
    return this.running.get(id)?.isStopped === false;
  }

  /** Forgets the row's work and hands it back for the caller to stop (its lease stays until released). */
  take(id: string): T | undefined {
    const work = this.running.get(id);
    this.running.delete(id);
    return work;
  }

  /**
   * Starts the work of a row this replica just leased, unless it runs already (a tick and a call may both get
   * here). Work that ended by itself (it gave up) is replaced.
   */
  async run(id: string): Promise<void> {
    if (this.halted || this.holds(id)) return;
    const work = this.options.create(id);
    this.running.set(id, work);
    await work.start();
  }

  /** Leases the row and runs its work here when its lease is free or already this replica's. */
  async adopt(id: string, force = false): Promise<boolean> {
    if (this.halted) return false;
    const [claimed] = await this.options.store.claim(this.owner, this.options.timing.ttlMs, { id, force });
    if (claimed) await this.run(id);
    return claimed !== undefined;
  }

  /** Releases this replica's lease on the row (or on every row). */
  release(id?: string): Promise<void> {
    return this.options.store.release(this.owner, id);
  }

  private async tick(force: boolean): Promise<void> {
    const { store, timing } = this.options;
    try {
      // Only work that existed before the renewal is judged by it: work a call started meanwhile holds a lease
      // the renewal could not have seen.
      const before = new Map(this.running);
      const held = new Set(await store.renew(this.owner, timing.ttlMs));
      for (const [id, work] of before) {
        if ((held.has(id) && !work.isStopped) || this.running.get(id) !== work) continue;
        this.running.delete(id);
        await this.options.stop(work, false);
      }
      for (const id of await store.claim(this.owner, timing.ttlMs, { force })) await this.run(id);
      this.options.afterTick?.();
    } catch (error) {
      this.options.log.error({ err: error }, `${this.options.label} lease tick failed`);
    } finally {
      this.ticking = undefined;
    }
  }
}
