import type { ErasedBatch, RetentionStep } from '@asistente/kit';

/**
 * What the owner's WhatsApp retention erases here: the copies of messages older than the cut-off, newest first,
 * and the list's preview of a conversation whose last message is that old, with the assistant's suggestions of then
 * (drafts made of those messages). Notes are the team's own writing and stay with their conversation.
 */
export const INBOX_RETENTION_STEPS: readonly RetentionStep[] = [
  {
    name: 'messages',
    erase: async (sql, userId, before, limit) => {
      const [batch] = await sql<ErasedBatch[]>`
        with gone as (
          delete from inbox.entries where id in (
            select id from inbox.entries where user_id = ${userId} and kind in ('message', 'suggestion') and at < ${before}
            order by at desc limit ${limit})
          returning at)
        select count(*)::int as count, min(at) as oldest from gone`;
      return batch!;
    },
  },
  {
    name: 'previews',
    erase: async (sql, userId, before, limit) => {
      const [batch] = await sql<ErasedBatch[]>`
        with gone as (
          update inbox.conversations set last_message_preview = null where id in (
            select id from inbox.conversations
            where user_id = ${userId} and last_message_preview is not null and last_message_at < ${before}
            order by last_message_at desc limit ${limit})
          returning last_message_at)
        select count(*)::int as count, min(last_message_at) as oldest from gone`;
      return batch!;
    },
  },
];
