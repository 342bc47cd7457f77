import { collectDefaultMetrics } from 'prom-client';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import type { Metrics } from './metrics.js';
import { scrapeGauge } from './scrape-gauge.js';

/**
 * The process itself: prom-client's default metrics (event-loop lag `nodejs_eventloop_lag_seconds`,
 * heap `nodejs_heap_size_used_bytes`, GC `nodejs_gc_duration_seconds`, CPU, memory, handles) and the
 * database pool.
 *
 * postgres.js keeps its pool's queues private, so the pool is read where PostgreSQL can tell honestly:
 * this process's own connections in `pg_stat_activity` (found by the application_name the process
 * connects with), by state, and those waiting on a lock. Embedded (PGlite) there is one shared
 * connection and no `pg_stat_activity` worth reading: only the pool size (1) is reported.
 */
const USUAL_STATES = ['active', 'idle', 'idle_in_transaction'];

export function registerProcessMetrics(metrics: Metrics, db: Database, poolMax: number, log: Logger): void {
  collectDefaultMetrics({ register: metrics.registry });
  const pool = metrics.gauge<'kind'>({
    name: 'asistente_db_pool_max',
    help: 'Connections the process may open to the database (embedded: the one shared PGlite connection).',
    labelNames: ['kind'],
  });
  pool.set({ kind: db.kind }, db.kind === 'pglite' ? 1 : poolMax);
  if (db.kind !== 'postgres' || !db.applicationName) return;
  const applicationName = db.applicationName;
  scrapeGauge<'state'>(metrics, {
    name: 'asistente_db_connections',
    help: "This process's open database connections by state: active (in use), idle in transaction (in use, between statements), idle (free).",
    labelNames: ['state'],
    log,
    read: async () => {
      const rows = await db.sql<{ state: string; n: number }[]>`
        select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
        where application_name = ${applicationName} and pid <> pg_backend_pid()
        group by 1`;
      // The usual states are always present (0 when none), so a dashboard never sees a series come and go.
      const byState = new Map<string, number>(USUAL_STATES.map((state) => [state, 0]));
      for (const row of rows) byState.set(row.state.replaceAll(' ', '_'), row.n);
      return [...byState].map(([state, value]) => ({ labels: { state }, value }));
    },
  });
  scrapeGauge(metrics, {
    name: 'asistente_db_connections_waiting',
    help: "This process's database connections whose statement waits on a lock.",
    log,
    read: async () => {
      const [row] = await db.sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where application_name = ${applicationName} and pid <> pg_backend_pid() and wait_event_type = 'Lock'`;
      return [{ value: row?.n ?? 0 }];
    },
  });
}
