import { scrapeGauge, type Platform } from '@asistente/kit';

/**
 * Mail on the process's registry, read from `email.accounts` at scrape time (one row per mailbox):
 * mailboxes by state, the IDLE sessions some replica holds (a live lease), and how long ago the least
 * recently synced connected mailbox last finished a sync (a healthy one resyncs every few minutes).
 */
export function registerEmailMetrics(platform: Platform): void {
  const { metrics, log } = platform;
  const { sql } = platform.db;
  scrapeGauge<'state'>(metrics, {
    name: 'asistente_mail_accounts',
    help: 'Mail accounts by state: connected, error (connected, last sync failed) or disconnected.',
    labelNames: ['state'],
    log,
    read: async () => {
      const rows = await sql<{ state: string; n: number }[]>`
        select case when not connected then 'disconnected' when error is not null then 'error' else 'connected' end as state,
               count(*)::int as n
        from email.accounts group by 1`;
      const byState = new Map([['connected', 0], ['error', 0], ['disconnected', 0]]);
      for (const row of rows) byState.set(row.state, row.n);
      return [...byState].map(([state, value]) => ({ labels: { state }, value }));
    },
  });
  scrapeGauge(metrics, {
    name: 'asistente_mail_idle_sessions',
    help: 'Connected mail accounts whose sync and IDLE connection a replica holds (a lease not yet run out).',
    log,
    read: async () => {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from email.accounts where connected and lease_until > now()`;
      return [{ value: row?.n ?? 0 }];
    },
  });
  scrapeGauge(metrics, {
    name: 'asistente_mail_sync_lag_seconds',
    help: 'Seconds since the least recently synced connected mail account last finished a sync (0 when none is connected).',
    log,
    read: async () => {
      const [row] = await sql<{ lag: number | null }[]>`
        select extract(epoch from now() - min(coalesce(last_sync_at, created_at)))::float8 as lag
        from email.accounts where connected`;
      return [{ value: Math.max(0, row?.lag ?? 0) }];
    },
  });
}
