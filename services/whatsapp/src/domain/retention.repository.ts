import type { RetentionStep, Sql } from '@asistente/kit';

/**
 * What WhatsApp retention erases, one batch per statement: the user's messages older than the cut-off
 * (a pending outgoing message is still being sent and stays), then the preview text of chats whose last
 * message was older. The chats themselves stay (their name, phone and order in the inbox); analytics counts
 * live in the analytics service and nothing here reaches them.
 */
export function whatsappRetentionSteps(sql: Sql): RetentionStep[] {
  return [
    {
      name: 'messages',
      erase: async (userId, before, limit) =>
        (
          await sql`
            delete from whatsapp.messages where id in (
              select id from whatsapp.messages
              where user_id = ${userId} and sent_at < ${before} and status <> 'pending'
              limit ${limit})`
        ).count,
    },
    {
      name: 'chatPreviews',
      erase: async (userId, before, limit) =>
        (
          await sql`
            update whatsapp.chats set last_text = '' where id in (
              select id from whatsapp.chats
              where user_id = ${userId} and last_at < ${before} and last_text <> ''
              limit ${limit})`
        ).count,
    },
  ];
}
