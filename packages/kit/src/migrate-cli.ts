import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { createLogger } from './logger.js';

/**
 * `npm run migrate`: applies pending migrations to DATABASE_URL and exits,
 * the deploy step that runs before services boot with MIGRATE_ON_START=false.
 */
try {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    throw new Error('DATABASE_URL is required (the embedded database of npm start migrates itself)');
  }
  const log = createLogger(config.LOG_LEVEL, 'migrate');
  const applied = await migrate(config.DATABASE_URL, log);
  log.info({ applied: applied.length }, applied.length > 0 ? 'database migrated' : 'database already up to date');
} catch (error) {
  console.error(`migrate: ${(error as Error).message}`);
  process.exitCode = 1;
}
