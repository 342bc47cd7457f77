import type { Logger } from 'pino';
import type { Sql } from '../db/database.js';
import type { EventBus } from './bus.js';
import type { EventEnvelope } from './envelope.js';

interface OutboxRow {
  id: string;
  type: string;
  userId: string;
  occurredAt: Date;
  data: unknown;
  seq: string;
}

export interface RelayOptions {
  batchSize?: number;
  pollMs?: number;
  /** How long a claimed batch stays reserved to this relay before another may take it. */
  claimSeconds?: number;
}

/**
 * Publishes outbox rows to the bus. A batch is claimed in a short
 * transaction (FOR UPDATE SKIP LOCKED + a lease), published with no
 * transaction open, then marked sent: no connection is held while publishing
 * (PGlite has only one) and replicas never publish the same batch at once.
 * A crash after publish and before marking republishes: JetStream drops the
 * duplicate by msgID and consumers are idempotent by event id.
 */
export class OutboxRelay {
  private readonly tables = new Set<string>();
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly claimSeconds: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly sql: Sql,
    private readonly bus: EventBus,
    private readonly log: Logger,
    options: RelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.pollMs = options.pollMs ?? 1000;
    this.claimSeconds = options.claimSeconds ?? 30;
  }

  watch(table: string): void {
    this.tables.add(table);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Asks for a pass now; passes never overlap. */
  poke = (): void => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  };

  /** Publishes until every watched outbox is empty (used by tests and shutdown). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
    while ((await this.pass()) > 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    while (this.running) await this.running;
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.loop().finally(() => {
        this.running = undefined;
      });
    }, delay);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    let published = 0;
    try {
      do {
        this.again = false;
        published = await this.pass();
      } while ((published > 0 || this.again) && !this.stopped);
    } catch (error) {
      this.log.warn({ err: error }, 'outbox relay pass failed; will retry');
    }
    if (!this.stopped) this.schedule(this.pollMs);
  }

  /** One batch per table; returns how many events were published. */
  private async pass(): Promise<number> {
    if (!this.bus.isReady()) return 0;
    let total = 0;
    for (const table of this.tables) total += await this.publishBatch(table);
    return total;
  }

  private async publishBatch(table: string): Promise<number> {
    const sql = this.sql;
    const rows = await sql<OutboxRow[]>`
      update ${sql(table)} set claimed_until = now() + ${this.claimSeconds} * interval '1 second'
      where id in (
        select id from ${sql(table)}
        where published_at is null and (claimed_until is null or claimed_until < now())
        order by seq
        limit ${this.batchSize}
        for update skip locked
      )
      returning id, type, user_id, occurred_at, data, seq
      `;
    if (rows.length === 0) return 0;
    const ordered = [...rows].sort((a, b) => Number(a.seq) - Number(b.seq));
    const events: EventEnvelope[] = ordered.map((r) => ({
      id: r.id,
      type: r.type,
      userId: r.userId,
      occurredAt: new Date(r.occurredAt).toISOString(),
      data: r.data,
    }));
    try {
      await this.bus.publish(events);
    } catch (error) {
      await sql`update ${sql(table)} set claimed_until = null where id = any(${events.map((e) => e.id)}::uuid[])`;
      throw error;
    }
    await sql`update ${sql(table)} set published_at = now(), claimed_until = null where id = any(${events.map((e) => e.id)}::uuid[])`;
    return events.length;
  }
}
