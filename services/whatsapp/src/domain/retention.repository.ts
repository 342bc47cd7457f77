import type { ErasedBatch, RetentionCount, RetentionStep } from '@asistente/kit';

/**
 * What WhatsApp retention erases, one batch per statement, newest first: the user's messages older than the
 * cut-off (a pending outgoing message is still being sent and stays), then the preview text of chats whose
 * last message was older, then the text and sender its events carried for the webhooks (the outbox keeps
 * its rows: only those fields go). The chats themselves stay (their name, phone and order in the inbox);
 * analytics counts live in the analytics service and nothing here reaches them.
 */
export const WHATSAPP_RETENTION_STEPS: readonly RetentionStep[] = [
  {
    name: 'messages',
    erase: async (sql, userId, before, limit) => {
      const [batch] = await sql<ErasedBatch[]>`
        with gone as (
          delete from whatsapp.messages where id in (
            select id from whatsapp.messages
            where user_id = ${userId} and sent_at < ${before} and status <> 'pending'
            order by sent_at desc limit ${limit})
          returning sent_at)
        select count(*)::int as count, min(sent_at) as oldest from gone`;
      return batch!;
    },
  },
  {
    name: 'chatPreviews',
    erase: async (sql, userId, before, limit) => {
      const [batch] = await sql<ErasedBatch[]>`
        with emptied as (
          update whatsapp.chats set last_text = '' where id in (
            select id from whatsapp.chats
            where user_id = ${userId} and last_at < ${before} and last_text <> ''
            order by last_at desc limit ${limit})
          returning last_at)
        select count(*)::int as count, min(last_at) as oldest from emptied`;
      return batch!;
    },
  },
  {
    name: 'eventTexts',
    erase: async (sql, userId, before, limit) => {
      // The partial index whatsapp_outbox_texts holds exactly the rows still carrying a text.
      const [batch] = await sql<ErasedBatch[]>`
        with emptied as (
          update whatsapp.outbox set data = data - 'text' - 'from' - 'senderName' where id in (
            select id from whatsapp.outbox
            where user_id = ${userId} and occurred_at < ${before} and data ? 'text'
            order by occurred_at desc limit ${limit})
          returning occurred_at)
        select count(*)::int as count, min(occurred_at) as oldest from emptied`;
      return batch!;
    },
  },
];

/** The messages the steps above would erase: what "Conservación de datos" warns of (chat previews go with them). */
export const countWhatsAppRetention: RetentionCount = async (sql, userId, before) => {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from whatsapp.messages where user_id = ${userId} and sent_at < ${before} and status <> 'pending'`;
  return row!.count;
};
