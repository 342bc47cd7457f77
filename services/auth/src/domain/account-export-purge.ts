import type { Logger } from '@asistente/kit';
import type { AccountExportsRepository } from './account-exports.repository.js';

/** Exports per delete: each holds its archive's chunks, so a batch stays small. */
export const EXPORT_PURGE_BATCH = 20;
export const EXPORT_PURGE_EVERY_MS = 15 * 60 * 1000;

/** Deletes every export past its 24 hours (the archive's bytes with it); returns how many. */
export async function purgeExpiredExports(exports: AccountExportsRepository, batch = EXPORT_PURGE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await exports.purgeExpiredBatch(batch);
    if (deleted === null) return total;
    total += deleted;
    if (deleted < batch) return total;
  }
}

/** Runs the purge at start and every 15 minutes on this replica; the returned function stops it and waits for a run under way. */
export function scheduleExportPurge(exports: AccountExportsRepository, log: Logger): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = purgeExpiredExports(exports)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted }, 'expired account exports purged');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'account export purge failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, EXPORT_PURGE_EVERY_MS);
  timer.unref();
  const first = setImmediate(run);
  return async () => {
    clearInterval(timer);
    clearImmediate(first);
    await running;
  };
}
