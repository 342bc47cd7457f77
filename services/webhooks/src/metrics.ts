import { scrapeGauge, type Platform } from '@asistente/kit';
import type { DeliveryOutcome } from './domain/dispatcher.js';

/** Counting stops here: a backlog this large is an incident whatever its exact size, and the count stays cheap. */
const DUE_CAP = 100_000;

/**
 * `asistente_webhook_deliveries_total{outcome}`: each attempt by how it ended (delivered, retrying: failed
 * and scheduled again, failed: given up or sent once). The consumer's backlog is the kit's
 * `asistente_consumer_pending{durable="webhooks"}`.
 */
export function webhookMetrics(platform: Platform): (outcome: DeliveryOutcome) => void {
  const attempts = platform.metrics.counter<'outcome'>({
    name: 'asistente_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retrying (failed, tried again later), failed (given up).',
    labelNames: ['outcome'],
  });
  return (outcome) => attempts.inc({ outcome });
}

/**
 * What the dispatchers have not caught up with, read at scrape time through the partial index on pending
 * deliveries: how many are due now (to an enabled endpoint, not held by a live claim) and how late the
 * oldest is. A growing age means the replicas send slower than events arrive, or a receiver holds every slot.
 */
export function registerWebhookBacklog(platform: Platform): void {
  const { metrics, log } = platform;
  const { sql } = platform.db;
  const read = async () => {
    const [row] = await sql<{ n: number; age: number | null }[]>`
      select count(*)::int as n, extract(epoch from now() - min(next_attempt_at))::float8 as age from (
        select d.next_attempt_at from webhooks.deliveries d join webhooks.endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= now() and e.enabled
        order by d.next_attempt_at limit ${DUE_CAP}) as due`;
    return { due: row?.n ?? 0, age: Math.max(0, row?.age ?? 0) };
  };
  // Both gauges come from one read per scrape.
  let shared: ReturnType<typeof read> | undefined;
  const once = () => {
    shared ??= read().finally(() => setImmediate(() => (shared = undefined)));
    return shared;
  };
  scrapeGauge(metrics, {
    name: 'asistente_webhook_deliveries_due',
    help: `Webhook deliveries due now and not yet sent, to enabled endpoints (counted up to ${DUE_CAP}).`,
    log,
    read: async () => [{ value: (await once()).due }],
  });
  scrapeGauge(metrics, {
    name: 'asistente_webhook_oldest_due_seconds',
    help: 'How long the oldest webhook delivery due now has waited for a dispatcher (0 when none waits).',
    log,
    read: async () => [{ value: (await once()).age }],
  });
}
