import type { FastifyInstance } from 'fastify';
import type { Platform } from './platform.js';

/**
 * On SIGTERM/SIGINT: stop taking requests, let in-flight ones finish, flush
 * the outbox and close the connections, then exit. One signal is enough;
 * a second one during shutdown is ignored rather than cutting it short.
 */
export function closeOnSignals(app: FastifyInstance, platform: Platform): void {
  const shutdown = async (signal: string) => {
    platform.log.info({ signal }, 'shutting down');
    await app.close();
    await platform.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
