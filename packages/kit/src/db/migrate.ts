import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

/** The one ordered stream of migrations, shared by every service. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../../migrations', import.meta.url));

/**
 * Applies pending migrations. node-pg-migrate takes an advisory lock, so
 * several services starting together apply each migration once. `count` stops after that many
 * (a restore loads its data at the version the backup was taken, then applies the rest).
 */
export async function migrate(databaseUrl: string, log: Logger, count = Infinity): Promise<string[]> {
  // Loaded here, not with the kit: ~12 MB resident (with pg) that a service started with MIGRATE_ON_START=false never uses.
  const { runner } = await import('node-pg-migrate');
  const applied = await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    count,
    singleTransaction: true,
    verbose: false,
    log: (msg: string) => log.debug({ migration: msg }, 'migrate'),
  });
  const names = applied.map((m) => m.name);
  if (names.length > 0) log.info({ migrations: names }, 'migrations applied');
  return names;
}
