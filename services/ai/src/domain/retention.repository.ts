import type { ErasedBatch, RetentionCount, RetentionStep } from '@asistente/kit';

/**
 * What AI retention erases, one batch per statement, newest first: the user's runs older than the cut-off.
 * The daily budget and the per-chat cap read today's runs only (a day at most, the shortest retention), and
 * the analytics totals of runs and tokens are counted from events in the analytics service, which stay.
 */
export const AI_RETENTION_STEPS: readonly RetentionStep[] = [
  {
    name: 'runs',
    erase: async (sql, userId, before, limit) => {
      const [batch] = await sql<ErasedBatch[]>`
        with gone as (
          delete from ai.runs where id in (
            select id from ai.runs where user_id = ${userId} and created_at < ${before}
            order by created_at desc limit ${limit})
          returning created_at)
        select count(*)::int as count, min(created_at) as oldest from gone`;
      return batch!;
    },
  },
];

/** The runs the step above would erase: what "Conservación de datos" warns of. */
export const countAiRetention: RetentionCount = async (sql, userId, before) => {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from ai.runs where user_id = ${userId} and created_at < ${before}`;
  return row!.count;
};
