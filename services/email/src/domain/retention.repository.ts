import type { ErasedBatch, RetentionCount, RetentionStep } from '@asistente/kit';

/**
 * What mail retention erases, one batch per statement, newest first: the body (text, HTML, the preview cut
 * from it) and the stored attachments of the user's mails older than the cut-off. The row stays with its
 * headers (from, to, subject, date, folder, flags): the mail still lives in the owner's mailbox on the
 * server, the list keeps its place, and opening it fetches the body from the server again as for any mail
 * the sync listed (`body_fetched` false), which the next day's run empties again. Drafts are the owner's
 * unsent work and stay.
 */
export const EMAIL_RETENTION_STEPS: readonly RetentionStep[] = [
  {
    name: 'bodies',
    erase: async (sql, userId, before, limit) => {
      const [batch] = await sql<ErasedBatch[]>`
        with picked as (
          select id from email.messages
          where user_id = ${userId} and sent_at < ${before} and folder <> 'drafts' and (body_fetched or preview <> '')
          order by sent_at desc limit ${limit}
        ), files as (
          delete from email.attachments where message_id in (select id from picked)
        ), emptied as (
          update email.messages
          set text_body = '', html_body = null, preview = '', parse_error = null, body_fetched = false, partial = false
          where id in (select id from picked)
          returning sent_at
        )
        select count(*)::int as count, min(sent_at) as oldest from emptied`;
      return batch!;
    },
  },
];

/** The mails whose body the step above would empty: what "Conservación de datos" warns of. */
export const countEmailRetention: RetentionCount = async (sql, userId, before) => {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from email.messages
    where user_id = ${userId} and sent_at < ${before} and folder <> 'drafts' and (body_fetched or preview <> '')`;
  return row!.count;
};
