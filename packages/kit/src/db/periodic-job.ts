import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Sql } from './database.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a run is handed: the clock's time it started at, and a check that renews its claim between steps. */
export interface PeriodicRun {
  now: Date;
  /** Extends the claim; false once another replica took it over (the run should stop). */
  stillHeld(): Promise<boolean>;
}

export interface PeriodicJobOptions {
  /** Unique across the deployment, e.g. `whatsapp.retention`. */
  name: string;
  /** The period a run covers, from the clock's time: one run per distinct value (the UTC day by default). */
  periodOf?: (now: Date) => string;
  /** How often each replica asks for the claim; the claim, not the timer, makes it once per period. */
  everyMs?: number;
  /** How long a claim lasts without renewal: a replica that dies mid-run is taken over after this. */
  leaseMs?: number;
  /** Injected in tests; the claim and the lease both read this clock. */
  now?: () => Date;
  log: Logger;
}

/** The UTC day of a time, `2026-11-26`. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * A job that runs once per period across every replica of a deployment (and once in the embedded process):
 * a row of `platform.periodic_jobs` per job names the period last claimed, the replica holding it, until
 * when, and whether it finished. A replica takes the claim for a new period once the last run is done (or
 * its holder's lease ran out), and an unfinished period whose holder died, in one upsert: two replicas
 * asking at once get one claim. The work must be idempotent: a run taken over starts again.
 */
export class PeriodicJob {
  private readonly owner = randomUUID();
  private readonly periodOf: (now: Date) => string;
  private readonly everyMs: number;
  private readonly leaseMs: number;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private first: NodeJS.Immediate | undefined;
  private running: Promise<unknown> | undefined;
  /** When this replica last claimed or extended its claim (the clock's time, ms). */
  private renewedAt = 0;

  constructor(
    private readonly sql: Sql,
    private readonly options: PeriodicJobOptions,
    private readonly work: (run: PeriodicRun) => Promise<void>,
  ) {
    this.periodOf = options.periodOf ?? utcDay;
    this.everyMs = options.everyMs ?? 60 * 60 * 1000;
    this.leaseMs = options.leaseMs ?? 10 * 60 * 1000;
    this.now = options.now ?? (() => new Date());
  }

  /** Asks at once and then every `everyMs` on this replica. */
  start(): void {
    const tick = () => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch((error: unknown) => this.options.log.warn({ err: error, job: this.options.name }, 'periodic job failed'))
        .finally(() => {
          this.running = undefined;
        });
    };
    this.timer = setInterval(tick, this.everyMs);
    this.timer.unref();
    this.first = setImmediate(tick);
  }

  /** Stops asking and waits for a run under way (its claim is left to expire or be finished). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (this.first) clearImmediate(this.first);
    await this.running;
  }

  /** Claims the current period and runs the work: 'ran', or 'skipped' when it is done or held elsewhere. */
  async runOnce(): Promise<'ran' | 'skipped'> {
    const now = this.now();
    const period = this.periodOf(now);
    if (!(await this.claim(now, period))) return 'skipped';
    this.renewedAt = now.getTime();
    await this.work({ now, stillHeld: () => this.renew(period) });
    await this.sql`
      update platform.periodic_jobs set done_at = ${this.now()}
      where name = ${this.options.name} and period = ${period} and owner = ${this.owner}`;
    return 'ran';
  }

  private async claim(now: Date, period: string): Promise<boolean> {
    const until = new Date(now.getTime() + this.leaseMs);
    const rows = await this.sql`
      insert into platform.periodic_jobs as j (name, period, owner, lease_until)
      values (${this.options.name}, ${period}, ${this.owner}, ${until})
      on conflict (name) do update set period = excluded.period, owner = excluded.owner, lease_until = excluded.lease_until, done_at = null
      where (j.period < excluded.period and (j.done_at is not null or j.lease_until < ${now}))
         or (j.period = excluded.period and j.done_at is null and j.lease_until < ${now})
      returning name`;
    return rows.length === 1;
  }

  /**
   * Extends the claim once a fifth of the lease has gone by since the last extension (a run checks after
   * every batch; a write per batch would double its statements). Within that fifth nobody can have taken it.
   */
  private async renew(period: string): Promise<boolean> {
    const now = this.now();
    if (now.getTime() - this.renewedAt < this.leaseMs / 5) return true;
    const rows = await this.sql`
      update platform.periodic_jobs set lease_until = ${new Date(now.getTime() + this.leaseMs)}
      where name = ${this.options.name} and period = ${period} and owner = ${this.owner} and done_at is null
      returning name`;
    if (rows.length === 1) this.renewedAt = now.getTime();
    return rows.length === 1;
  }
}

/** The moment before which data kept `days` days is erased, from the run's time. */
export const retentionCutoff = (now: Date, days: number): Date => new Date(now.getTime() - days * DAY_MS);
