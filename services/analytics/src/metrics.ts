import { scrapeGauge, type Platform } from '@asistente/kit';

/** Counting stops here: past it the backlog of invalid events is an incident whatever its size. */
const PARKED_CAP = 100_000;

/**
 * Analytics on the process's registry: the events the rollup consumer parked (they failed validation: kept
 * for inspection, never applied), read at scrape time. The consumer's own backlog is the kit's
 * `asistente_consumer_pending{durable="analytics"}`.
 */
export function registerAnalyticsMetrics(platform: Platform): void {
  const { sql } = platform.db;
  scrapeGauge(platform.metrics, {
    name: 'asistente_events_parked',
    help: `Events the analytics consumer parked as invalid (counted up to ${PARKED_CAP}).`,
    log: platform.log,
    read: async () => {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from (select 1 from analytics.parked_events limit ${PARKED_CAP}) as parked`;
      return [{ value: row?.n ?? 0 }];
    },
  });
}
