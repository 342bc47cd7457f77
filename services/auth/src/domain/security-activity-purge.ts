import { SECURITY_ACTIVITY_RETENTION_DAYS } from '@asistente/contracts';
import type { Logger } from '@asistente/kit';
import { purgeInBatches, schedulePeriodicPurge } from './batched-purge.js';
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
export function purgeOldSecurityActivity(activity: SecurityActivityRepository, now: Date = new Date(), batch = PURGE_BATCH): Promise<number> {
  const before = new Date(now.getTime() - SECURITY_ACTIVITY_RETENTION_DAYS * DAY_MS);
  return purgeInBatches((size) => activity.purgeBatch(before, size), batch);
}

/** Runs the purge at start and every hour on this replica; the returned function stops it and waits for a run under way. */
export function schedulePurge(activity: SecurityActivityRepository, log: Logger): () => Promise<void> {
  return schedulePeriodicPurge(() => purgeOldSecurityActivity(activity), {
    everyMs: PURGE_EVERY_MS,
    log,
    messages: { purged: 'old security activity purged', failed: 'security activity purge failed' },
  });
}
