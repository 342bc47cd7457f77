import type { Sql, TransactionSql } from '../db/database.js';
import { retentionCutoff, type PeriodicRun } from '../db/periodic-job.js';

/** Rows per statement: each batch is its own short transaction, so no lock is held for long. */
export const RETENTION_BATCH = 500;

/** What one statement touched, and the oldest time among those rows (`null` when it touched none). */
export interface ErasedBatch {
  count: number;
  oldest: Date | null;
}

/**
 * One kind of row a service erases: `erase` removes (or empties) at most `limit` rows of the user older
 * than `before`, newest first, in one statement, and answers how many it touched and the oldest time among
 * them. Rows it touched must no longer match. The next batch starts below that time: each statement reads
 * from where the last one stopped instead of stepping again over the index entries it just left dead.
 */
export interface RetentionStep {
  name: string;
  erase(tx: TransactionSql, userId: string, before: Date, limit: number): Promise<ErasedBatch>;
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
      for (const step of steps) {
        let before = retentionCutoff(run.now, days);
        for (;;) {
          const started = performance.now();
          const { count, oldest } = await sql.begin(async (tx) => {
            // A batch lost in a crash is erased again by the next run: its commit need not wait for the disk.
            await tx`set local synchronous_commit = off`;
            return step.erase(tx, userId, before, batch);
          });
          report.longestStatementMs = Math.max(report.longestStatementMs, performance.now() - started);
          report.statements++;
          report.erased[step.name]! += count;
          if (!(await run.stillHeld())) return { ...report, finished: false };
          if (count < batch || !oldest) break;
          // Rows of that same millisecond may remain (a Date has no microseconds): the bound includes it.
          before = new Date(Math.min(before.getTime(), oldest.getTime() + 1));
        }
      }
    }
    if (users.length < 100) return report;
    after = users[users.length - 1]!.userId;
  }
}
