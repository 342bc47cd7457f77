import { SECURITY_ACTIVITY_RETENTION_DAYS } from '@asistente/contracts';
import type { Logger } from '@asistente/kit';
import type { SecurityActivityRepository } from './security-activity.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per delete: a short transaction that never holds many locks. */
export const PURGE_BATCH = 1000;
/** How often each replica tries; the lock lets one of them work at a time. */
export const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Removes security activity older than 90 days in batches until none is left or another replica holds the
 * purge lock. Returns the rows this call deleted.
 */
export async function purgeOldSecurityActivity(activity: SecurityActivityRepository, now: Date = new Date(), batch = PURGE_BATCH): Promise<number> {
  const before = new Date(now.getTime() - SECURITY_ACTIVITY_RETENTION_DAYS * DAY_MS);
  let total = 0;
  for (;;) {
    const deleted = await activity.purgeBatch(before, batch);
    if (deleted === null) return total;
    total += deleted;
    if (deleted < batch) return total;
  }
}

/** Runs the purge at start and every hour on this replica; the returned function stops it and waits for a run under way. */
export function schedulePurge(activity: SecurityActivityRepository, log: Logger): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = purgeOldSecurityActivity(activity)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted }, 'old security activity purged');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'security activity purge failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, PURGE_EVERY_MS);
  timer.unref();
  const first = setImmediate(run);
  return async () => {
    clearInterval(timer);
    clearImmediate(first);
    await running;
  };
}
