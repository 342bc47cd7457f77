import { observeProviderCalls, scrapeGauge, type CallObserver, type Platform } from '@asistente/kit';

/**
 * Calendar on the process's registry: Google push channels (open, or past their expiry and waiting for the
 * sweep to renew them) read at scrape time through the expiry index, and every call to Google and to a
 * CalDAV server by outcome (429s apart), counted as the HTTP client answers.
 */
export function registerCalendarMetrics(platform: Platform): { google: CallObserver; caldav: CallObserver } {
  const { metrics, log } = platform;
  const { sql } = platform.db;
  scrapeGauge<'state'>(metrics, {
    name: 'asistente_calendar_push_channels',
    help: 'Google Calendar push channels: active (not yet expired) or expired (waiting to be renewed).',
    labelNames: ['state'],
    log,
    read: async () => {
      const [row] = await sql<{ active: number; expired: number }[]>`
        select count(*) filter (where expires_at > now())::int as active, count(*) filter (where expires_at <= now())::int as expired
        from calendar.watch_channels`;
      return [
        { labels: { state: 'active' }, value: row?.active ?? 0 },
        { labels: { state: 'expired' }, value: row?.expired ?? 0 },
      ];
    },
  });
  return { google: observeProviderCalls(metrics, 'google'), caldav: observeProviderCalls(metrics, 'caldav') };
}
