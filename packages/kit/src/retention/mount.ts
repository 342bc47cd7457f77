import type { Logger } from 'pino';
import type { Sql } from '../db/database.js';
import { PeriodicJob } from '../db/periodic-job.js';
import type { EventBus } from '../events/bus.js';
import { eraseOlderData, type RetentionStep } from './erase-older.js';
import { RetentionCopy, type RetentionKind } from './retention-copy.js';

export interface RetentionOptions {
  sql: Sql;
  bus: EventBus;
  log: Logger;
  /** The service's schema: its copy lives in `<schema>.retention`, its job is `<schema>.retention`. */
  schema: string;
  kind: RetentionKind;
  steps: readonly RetentionStep[];
  now?: () => Date;
}

/**
 * A service's part of retention: its copy of the owner's setting, kept from auth's events by a durable
 * consumer of its own, and the daily job that erases older rows, once per deployment whatever the number of
 * replicas. The caller starts the job and stops it on close.
 */
export async function mountRetention(options: RetentionOptions): Promise<PeriodicJob> {
  const { sql, bus, log, schema, kind, steps } = options;
  const copyTable = `${schema}.retention`;
  await bus.subscribe(`${schema}-retention`, new RetentionCopy(sql, copyTable, kind, log).handle);
  return new PeriodicJob(sql, { name: `${schema}.retention`, log, ...(options.now ? { now: options.now } : {}) }, async (run) => {
    const report = await eraseOlderData(sql, copyTable, run, steps);
    const erased = Object.values(report.erased).reduce((a, b) => a + b, 0);
    if (erased > 0 || !report.finished) log.info({ ...report, job: copyTable }, 'retention applied');
  });
}
