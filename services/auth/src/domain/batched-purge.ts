import type { Logger } from '@asistente/kit';

/**
 * Deletes batch after batch until one deletes fewer than `batch` rows or answers null (another replica holds
 * the purge's lock and is doing the work); returns the rows this call deleted.
 */
export async function purgeInBatches(deleteBatch: (batch: number) => Promise<number | null>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(batch);
    if (deleted === null) return total;
    total += deleted;
    if (deleted < batch) return total;
  }
}

export interface PurgeSchedule {
  everyMs: number;
  log: Logger;
  /** The log lines: `purged` when rows went, `failed` when a run threw. */
  messages: { purged: string; failed: string };
}

/**
 * Runs `purge` at start and every `everyMs` on this replica, never two runs at once (the purge's lock keeps
 * replicas from working together); the returned function stops it and waits for a run under way.
 */
export function schedulePeriodicPurge(purge: () => Promise<number>, { everyMs, log, messages }: PurgeSchedule): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = purge()
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted }, messages.purged);
      })
      .catch((error: unknown) => log.warn({ err: error }, messages.failed))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  const first = setImmediate(run);
  return async () => {
    clearInterval(timer);
    clearImmediate(first);
    await running;
  };
}
