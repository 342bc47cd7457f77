import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { Logger } from 'pino';

/** The one ordered stream of migrations, shared by every service. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../../migrations', import.meta.url));

/**
 * Applies pending migrations. node-pg-migrate takes an advisory lock, so
 * several services starting together apply each migration once.
 */
export async function migrate(databaseUrl: string, log: Logger): Promise<string[]> {
  const applied = await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    count: Infinity,
    singleTransaction: true,
    verbose: false,
    log: (msg: string) => log.debug({ migration: msg }, 'migrate'),
  });
  const names = applied.map((m) => m.name);
  if (names.length > 0) log.info({ migrations: names }, 'migrations applied');
  return names;
}
