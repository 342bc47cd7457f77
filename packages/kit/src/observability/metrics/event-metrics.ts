import type { Logger } from 'pino';
import type { Sql } from '../../db/database.js';
import type { EventBus } from '../../events/bus.js';
import type { ConsumerLag } from '../../events/jetstream-bus.js';
import type { Metrics } from './metrics.js';
import { scrapeGauge } from './scrape-gauge.js';

/** Counting stops here: a backlog this large is an incident whatever its exact size, and the count stays cheap. */
export const OUTBOX_COUNT_CAP = 100_000;

/**
 * Outbox rows waiting for the relay and the age of the oldest, per outbox this process writes, read at
 * scrape time through the partial index on unpublished rows (a bounded count, and the first row by seq).
 */
export function registerOutboxMetrics(metrics: Metrics, sql: Sql, tables: () => Iterable<string>, log: Logger): void {
  const read = async () => {
    const rows = await Promise.all(
      [...tables()].map(async (table) => {
        const [counted] = await sql<{ n: number }[]>`
          select count(*)::int as n from (select 1 from ${sql(table)} where published_at is null limit ${OUTBOX_COUNT_CAP}) as waiting`;
        const [oldest] = await sql<{ age: number }[]>`
          select extract(epoch from now() - occurred_at)::float8 as age from ${sql(table)}
          where published_at is null order by seq limit 1`;
        return { schema: table.split('.')[0]!, waiting: counted?.n ?? 0, age: Math.max(0, oldest?.age ?? 0) };
      }),
    );
    return rows;
  };
  // Both gauges come from one read per scrape.
  let shared: Promise<Awaited<ReturnType<typeof read>>> | undefined;
  const once = () => {
    shared ??= read().finally(() => setImmediate(() => (shared = undefined)));
    return shared;
  };
  scrapeGauge<'schema'>(metrics, {
    name: 'asistente_outbox_waiting',
    help: `Outbox rows not yet published to the bus, per schema (counted up to ${OUTBOX_COUNT_CAP}).`,
    labelNames: ['schema'],
    log,
    read: async () => (await once()).map((row) => ({ labels: { schema: row.schema }, value: row.waiting })),
  });
  scrapeGauge<'schema'>(metrics, {
    name: 'asistente_outbox_oldest_age_seconds',
    help: 'Age of the oldest outbox row not yet published, per schema (0 when none waits).',
    labelNames: ['schema'],
    log,
    read: async () => (await once()).map((row) => ({ labels: { schema: row.schema }, value: row.age })),
  });
}

/**
 * The bus as the relay sees it, counting what it publishes: events accepted by the bus, and publish
 * attempts that failed (NATS down, no stream). Everything else passes through untouched.
 */
export function meteredPublishing(bus: EventBus, metrics: Metrics): EventBus {
  const published = metrics.counter({
    name: 'asistente_relay_published_total',
    help: 'Events the outbox relay published to the bus.',
  });
  const failures = metrics.counter({
    name: 'asistente_relay_publish_failures_total',
    help: 'Outbox relay publish attempts (one batch each) that failed; the batch stays in the outbox and is retried.',
  });
  const publish: EventBus['publish'] = async (events, ...rest) => {
    try {
      await (bus.publish as (...args: unknown[]) => Promise<void>)(events, ...rest);
    } catch (error) {
      failures.inc();
      throw error;
    }
    published.inc(events.length);
  };
  return new Proxy(bus, {
    get(target, property, receiver) {
      if (property === 'publish') return publish;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** JetStream consumers this process runs: backlog and redeliveries per durable, asked of NATS at scrape time. */
export function registerConsumerMetrics(metrics: Metrics, lag: () => Promise<ConsumerLag[]>, log: Logger): void {
  let shared: Promise<ConsumerLag[]> | undefined;
  const once = () => {
    shared ??= lag().finally(() => setImmediate(() => (shared = undefined)));
    return shared;
  };
  const gauges: [string, string, keyof Omit<ConsumerLag, 'durable'>][] = [
    ['asistente_consumer_pending', 'Events in the stream not yet delivered to the durable consumer.', 'pending'],
    ['asistente_consumer_ack_pending', 'Events delivered to the durable consumer and not yet acknowledged.', 'ackPending'],
    ['asistente_consumer_redelivered', 'Events the durable consumer was handed more than once and has not yet acknowledged.', 'redelivered'],
  ];
  for (const [name, help, field] of gauges) {
    scrapeGauge<'durable'>(metrics, {
      name,
      help,
      labelNames: ['durable'],
      log,
      read: async () => (await once()).map((one) => ({ labels: { durable: one.durable }, value: one[field] })),
    });
  }
}
