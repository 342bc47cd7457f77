import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Sql } from '../db/database.js';
import { publishSpans } from '../observability/tracing/event-spans.js';
import type { EventBus } from './bus.js';
import type { EventEnvelope } from './envelope.js';
import { outboxChannel } from './outbox.js';
import { USER_DELETED } from '../erasure/sweep.js';

interface OutboxRow {
  id: string;
  type: string;
  userId: string;
  occurredAt: Date;
  data: unknown;
  seq: string;
  traceparent: string | null;
  actorId: string | null;
}

/**
 * After a poke, passes that find nothing are retried at these delays (ms): the
 * poke comes from inside the writing transaction, before its commit makes the
 * rows visible, so the relay looks again shortly instead of waiting a full poll.
 */
const AFTER_POKE_MS = [5, 10, 20, 40, 80, 160, 320, 640];

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
  /** Index into AFTER_POKE_MS while a poked write may still be committing; -1 when none is. */
  private afterPoke = -1;

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

  private listening: boolean = false;
  private readonly unlisten: (() => Promise<void>)[] = [];

  watch(table: string): void {
    this.tables.add(table);
    if (this.listening) this.listenTo(table);
  }

  /**
   * PostgreSQL (not the embedded one, whose socket does not carry notifications): wake on the NOTIFY
   * each outbox append sends, which PostgreSQL delivers when the writing transaction commits.
   */
  listenForCommits(): void {
    this.listening = true;
    for (const table of this.tables) this.listenTo(table);
  }

  private listenTo(table: string): void {
    this.sql
      .listen(outboxChannel(table), () => this.poke())
      .then(({ unlisten }) => void this.unlisten.push(unlisten))
      .catch((error: unknown) => this.log.warn({ err: error, table }, 'outbox notifications unavailable; polling'));
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Asks for a pass now; passes never overlap. */
  poke = (): void => {
    if (this.stopped) return;
    this.afterPoke = 0;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  };

  /**
   * Publishes until every watched outbox is empty and no pass of its own is under way (used by tests and
   * shutdown). A pass started meanwhile (a commit's notification) may hold rows this one skipped: it is awaited.
   */
  async drain(): Promise<void> {
    do {
      while (this.running) await this.running;
    } while ((await this.pass()) > 0 || this.running);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all(this.unlisten.splice(0).map((unlisten) => unlisten().catch(() => undefined)));
    while (this.running) await this.running;
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    // Outside whatever request poked it: each pass would otherwise join (and grow) that request's trace.
    const pass = context.bind(ROOT_CONTEXT, () => {
      this.running = this.loop().finally(() => {
        this.running = undefined;
      });
    });
    this.timer = setTimeout(pass, delay);
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
    if (this.stopped) return;
    const followUp = this.afterPoke >= 0 ? AFTER_POKE_MS[this.afterPoke] : undefined;
    this.afterPoke = followUp === undefined ? -1 : this.afterPoke + 1;
    this.schedule(followUp ?? this.pollMs);
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
      returning id, type, user_id, occurred_at, data, seq, traceparent, actor_id
      `;
    if (rows.length === 0) return 0;
    const ordered = [...rows].sort((a, b) => Number(a.seq) - Number(b.seq));
    const events: EventEnvelope[] = ordered.map((r) => ({
      id: r.id,
      type: r.type,
      userId: r.userId,
      occurredAt: new Date(r.occurredAt).toISOString(),
      data: r.data,
      ...(r.actorId ? { actorId: r.actorId } : {}),
    }));
    const spans = publishSpans(events, ordered.map((r) => r.traceparent));
    try {
      await this.bus.publish(events, spans.traceparents);
      spans.end();
    } catch (error) {
      spans.end(error);
      await sql`update ${sql(table)} set claimed_until = null where id = any(${events.map((e) => e.id)}::uuid[])`;
      throw error;
    }
    await sql`update ${sql(table)} set published_at = now(), claimed_until = null where id = any(${events.map((e) => e.id)}::uuid[])`;
    // A delivered `user.deleted` is the last row naming an erased user: it goes once the bus has it.
    if (events.some((e) => e.type === USER_DELETED)) {
      await sql`delete from ${sql(table)} where id = any(${events.map((e) => e.id)}::uuid[]) and type = ${USER_DELETED}`;
    }
    return events.length;
  }
}
