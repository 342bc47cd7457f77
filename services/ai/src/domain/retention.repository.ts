import type { RetentionStep, Sql } from '@asistente/kit';

/**
 * What AI retention erases, one batch per statement: the user's runs older than the cut-off. The daily
 * budget and the per-chat cap read today's runs only (a day at most, the shortest retention), and the
 * analytics totals of runs and tokens are counted from events in the analytics service, which stay.
 */
export function aiRetentionSteps(sql: Sql): RetentionStep[] {
  return [
    {
      name: 'runs',
      erase: async (userId, before, limit) =>
        (
          await sql`
            delete from ai.runs where id in (
              select id from ai.runs where user_id = ${userId} and created_at < ${before} limit ${limit})`
        ).count,
    },
  ];
}
