import type { Logger } from '@asistente/kit';
import type { AccountExportsRepository } from './account-exports.repository.js';
import { purgeInBatches, schedulePeriodicPurge } from './batched-purge.js';

/** Exports per delete: each holds its archive's chunks, so a batch stays small. */
export const EXPORT_PURGE_BATCH = 20;
export const EXPORT_PURGE_EVERY_MS = 15 * 60 * 1000;

/** Deletes every export past its 24 hours (the archive's bytes with it); returns how many. */
export function purgeExpiredExports(exports: AccountExportsRepository, batch = EXPORT_PURGE_BATCH): Promise<number> {
  return purgeInBatches((size) => exports.purgeExpiredBatch(size), batch);
}

/** Runs the purge at start and every 15 minutes on this replica; the returned function stops it and waits for a run under way. */
export function scheduleExportPurge(exports: AccountExportsRepository, log: Logger): () => Promise<void> {
  return schedulePeriodicPurge(() => purgeExpiredExports(exports), {
    everyMs: EXPORT_PURGE_EVERY_MS,
    log,
    messages: { purged: 'expired account exports purged', failed: 'account export purge failed' },
  });
}
