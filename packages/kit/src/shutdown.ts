import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Platform } from './platform.js';
import { watchParent } from './parent-watch.js';

/** In-flight requests get this long to finish before their connections are cut (a proxied stream never finishes). */
export const IN_FLIGHT_GRACE_MS = 4_000;
/**
 * From here on the database is closed at once, whatever is still draining: an embedded database left open
 * (PGlite's postmaster.pid, embedded-db.json) locks the owner's own commands out, so it closes before the end.
 */
const CLOSE_NOW_AT_MS = 7_000;
/** Whatever is still pending then, the process exits: Kubernetes' grace period and the 10 s promise hold. */
export const HARD_DEADLINE_MS = 9_000;
/**
 * A signal this soon after the first is the same stop, not a second Ctrl+C: a terminal's Ctrl+C reaches npm
 * and node together, and npm passes its own copy on to node too.
 */
export const SAME_STOP_MS = 1_000;
/** How often the drain closes the connections that have become idle since it began. */
const IDLE_SWEEP_MS = 50;

export interface StopOptions {
  log: Logger;
  /**
   * Start-up opens an embedded database (no DATABASE_URL): a stop during start-up waits for `serve` to hand
   * it over and closes it. Otherwise nothing opened before `serve` needs closing (PostgreSQL and NATS
   * notice a connection gone; no lease is taken before listening), and such a stop exits at once.
   */
  embedded: boolean;
  /** A line for the person at the terminal (`npm start`), beside the JSON log. */
  say?: (line: string) => void;
}

export interface ProcessStop {
  /** A stop was asked for (a signal, the parent gone): start-up must not go on to listen. */
  readonly requested: boolean;
  /** Hands over what a stop closes once start-up has built it; a stop asked for during start-up begins here. */
  serve(app: FastifyInstance, platform: Platform): void;
  /** Start-up failed after `serve`: closes the database at once and exits 1. */
  abort(error: unknown): void;
}

type State = 'running' | 'draining' | 'closing-now';

/**
 * Installed first thing in a process's entry point, before anything opens, so a stop during start-up is
 * not lost. The first SIGTERM/SIGINT (or the parent's death) drains: ends the live streams with a
 * reconnect hint, lets in-flight requests finish (cutting what is left after IN_FLIGHT_GRACE_MS), flushes
 * the outbox, drains the bus and closes the database, then exits 0. A second signal (after SAME_STOP_MS),
 * or CLOSE_NOW_AT_MS without the drain done, cuts every connection and closes the database at once; at
 * HARD_DEADLINE_MS the process exits whatever is left.
 */
export function stopOnSignals({ log, embedded, say }: StopOptions): ProcessStop {
  let state: State = 'running';
  let firstAt = 0;
  let served: { app: FastifyInstance; platform: Platform } | undefined;
  let exitCode = 0;

  const finish = (code: number) => {
    if (code === 0) say?.('  Mi Asistente.IA se ha cerrado.\n');
    process.exit(code);
  };

  const drain = async ({ app, platform }: NonNullable<typeof served>) => {
    platform.streams.closeAll();
    const cut = setTimeout(() => app.server.closeAllConnections(), IN_FLIGHT_GRACE_MS);
    cut.unref();
    // Node closes the idle keep-alive connections when close() begins, not those whose response ends later
    // (an ended stream, a request that finished): without this they would hold the drain until the cut.
    const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    await app.close().catch((error: unknown) => log.warn({ err: error }, 'server close failed'));
    clearTimeout(cut);
    clearInterval(sweep);
    await platform.close().catch((error: unknown) => log.warn({ err: error }, 'platform close failed'));
    if (state === 'draining') finish(0);
  };

  const closeDatabaseNow = async ({ app, platform }: NonNullable<typeof served>) => {
    app.server.closeAllConnections();
    platform.streams.closeAll();
    try {
      await platform.db.close({ now: true });
      finish(exitCode);
    } catch (error) {
      log.error({ err: error }, 'database close failed');
      finish(1);
    }
  };

  const closeNow = (reason: string, code: number) => {
    if (state === 'closing-now') return;
    state = 'closing-now';
    exitCode = code;
    log.warn({ reason }, 'stopping now: closing the database without waiting for the rest');
    if (served) void closeDatabaseNow(served);
  };

  const stop = (reason: string) => {
    if (state !== 'running') {
      if (Date.now() - firstAt >= SAME_STOP_MS) closeNow(`second ${reason}`, 0);
      return;
    }
    state = 'draining';
    firstAt = Date.now();
    log.info({ signal: reason }, 'shutting down');
    say?.('\n  Mi Asistente.IA se está cerrando (pulsa Ctrl+C otra vez para cerrarlo ya)...');
    if (!served && !embedded) finish(0);
    setTimeout(() => closeNow('shutdown deadline', 1), CLOSE_NOW_AT_MS).unref();
    setTimeout(() => {
      log.error({ afterMs: HARD_DEADLINE_MS }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, HARD_DEADLINE_MS).unref();
    if (served) void drain(served);
  };

  // `on`, not `once`: with no listener left, a repeated signal would end the process on the spot with the
  // database open.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  watchParent(() => stop('parent-exited'));

  return {
    get requested() {
      return state !== 'running';
    },
    serve(app, platform) {
      served = { app, platform };
      if (state === 'draining') void drain(served);
      else if (state === 'closing-now') void closeDatabaseNow(served);
    },
    abort(error) {
      log.fatal({ err: error }, 'start-up failed');
      if (state === 'running') {
        firstAt = Date.now();
        setTimeout(() => process.exit(1), HARD_DEADLINE_MS).unref();
      }
      closeNow('start-up failed', 1);
    },
  };
}
