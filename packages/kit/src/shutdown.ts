import type { FastifyInstance } from 'fastify';
import type { Platform } from './platform.js';

/** In-flight requests get this long to finish before their connections are cut (a proxied stream never finishes). */
export const IN_FLIGHT_GRACE_MS = 4_000;
/** Whatever is still pending then, the process exits: Kubernetes' grace period and the 10 s promise hold. */
export const HARD_DEADLINE_MS = 9_000;

/**
 * On SIGTERM/SIGINT: stop taking requests, end the live streams with a
 * reconnect hint, let in-flight requests finish (cutting what is left after
 * IN_FLIGHT_GRACE_MS), flush the outbox, drain the bus and close the
 * database, then exit, at the latest after HARD_DEADLINE_MS. One signal is
 * enough; a second one during shutdown is ignored rather than cutting it
 * short. A process whose parent went away (an `npm start` killed without
 * passing the signal on, a launcher that died) shuts down the same way
 * instead of living on as an orphan holding the port and the database.
 */
export function closeOnSignals(app: FastifyInstance, platform: Platform): void {
  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    platform.log.info({ signal: reason }, 'shutting down');
    setTimeout(() => {
      platform.log.error({ afterMs: HARD_DEADLINE_MS }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, HARD_DEADLINE_MS).unref();
    platform.streams.closeAll();
    const cut = setTimeout(() => app.server.closeAllConnections(), IN_FLIGHT_GRACE_MS);
    cut.unref();
    await app.close().catch((error: unknown) => platform.log.warn({ err: error }, 'server close failed'));
    clearTimeout(cut);
    await platform.close().catch((error: unknown) => platform.log.warn({ err: error }, 'platform close failed'));
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  const parent = process.ppid;
  if (parent > 1) {
    const watch = setInterval(() => {
      if (process.ppid !== parent) void shutdown('parent-exited');
    }, 1_000);
    watch.unref();
  }
}
