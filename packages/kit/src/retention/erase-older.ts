import type { Sql } from '../db/database.js';
import { retentionCutoff, type PeriodicRun } from '../db/periodic-job.js';

/** Rows per statement: each batch is its own short transaction, so no lock is held for long. */
export const RETENTION_BATCH = 500;

/**
 * One kind of row a service erases: `erase` removes (or empties) at most `limit` rows of the user older
 * than `before` in one statement and answers how many it touched. Rows it touched must no longer match.
 */
export interface RetentionStep {
  name: string;
  erase(userId: string, before: Date, limit: number): Promise<number>;
}

export interface RetentionReport {
  /** Rows touched per step. */
  erased: Record<string, number>;
  statements: number;
  /** The longest single statement, in milliseconds (the longest any lock was held). */
  longestStatementMs: number;
  /** false when another replica took the claim over and this run stopped. */
  finished: boolean;
}

/**
 * Erases, for every user whose copy (`copyTable`) sets a number of days, the rows older than that, step by
 * step, in batches until a batch comes back short. Renews the run's claim after every batch and stops when
 * it lost it.
 */
export async function eraseOlderData(
  sql: Sql,
  copyTable: string,
  run: PeriodicRun,
  steps: readonly RetentionStep[],
  batch = RETENTION_BATCH,
): Promise<RetentionReport> {
  const report: RetentionReport = { erased: Object.fromEntries(steps.map((s) => [s.name, 0])), statements: 0, longestStatementMs: 0, finished: true };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const users = await sql<{ userId: string; days: number }[]>`
      select user_id, days from ${sql(copyTable)} where days is not null and user_id > ${after} order by user_id limit 100`;
    for (const { userId, days } of users) {
      const before = retentionCutoff(run.now, days);
      for (const step of steps) {
        for (;;) {
          const started = performance.now();
          const count = await step.erase(userId, before, batch);
          report.longestStatementMs = Math.max(report.longestStatementMs, performance.now() - started);
          report.statements++;
          report.erased[step.name]! += count;
          if (!(await run.stillHeld())) return { ...report, finished: false };
          if (count < batch) break;
        }
      }
    }
    if (users.length < 100) return report;
    after = users[users.length - 1]!.userId;
  }
}
