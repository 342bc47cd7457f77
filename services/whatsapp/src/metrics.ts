import { scrapeGauge, type Platform } from '@asistente/kit';

/** Counting stops here: beyond it the exact number of queued sends does not change what an operator does. */
const PENDING_CAP = 100_000;

/** What a WhatsApp send that failed for good reports (the messages repository calls it). */
export type SendFailed = () => void;

/**
 * WhatsApp on the process's registry: accounts by connection state (one row per user, read at scrape time),
 * sends queued (through the partial index on pending messages) and sends given up as failed (counted as
 * they fail). No label names a user, a phone or a chat.
 */
export function registerWhatsAppMetrics(platform: Platform): SendFailed {
  const { metrics, log } = platform;
  const { sql } = platform.db;
  scrapeGauge<'state'>(metrics, {
    name: 'asistente_whatsapp_accounts',
    help: 'WhatsApp accounts by connection state (connected, qr, connecting, disconnected, logged_out, error, failed).',
    labelNames: ['state'],
    log,
    read: async () => {
      const rows = await sql<{ state: string; n: number }[]>`select state, count(*)::int as n from whatsapp.accounts group by state`;
      return rows.map((row) => ({ labels: { state: row.state }, value: row.n }));
    },
  });
  scrapeGauge(metrics, {
    name: 'asistente_whatsapp_accounts_down',
    help: 'Linked WhatsApp accounts their owners want connected whose socket is not open (logged out, failing, reconnecting).',
    log,
    read: async () => {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from whatsapp.accounts where wanted and linked and state <> 'connected'`;
      return [{ value: row?.n ?? 0 }];
    },
  });
  scrapeGauge(metrics, {
    name: 'asistente_whatsapp_sends_pending',
    help: `WhatsApp messages waiting to be sent (counted up to ${PENDING_CAP}).`,
    log,
    read: async () => {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from (select 1 from whatsapp.messages where status = 'pending' limit ${PENDING_CAP}) as pending`;
      return [{ value: row?.n ?? 0 }];
    },
  });
  const failed = metrics.counter({
    name: 'asistente_whatsapp_sends_failed_total',
    help: 'WhatsApp sends given up as failed after their retries.',
  });
  return () => failed.inc();
}
