import { createPlatform, exitOnConfigError, loadConfig, type Config } from '@asistente/kit';
import { rebuildRollups } from './domain/rebuild.js';

/**
 * `npm run analytics:rebuild`: recomputes every rollup from the recorded
 * events, against DATABASE_URL or the embedded database in DATA_DIR (stop
 * `npm start` first: the embedded database serves one process).
 */
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  exitOnConfigError(error);
}
const platform = await createPlatform(config, 'analytics-rebuild', { events: false });
const started = Date.now();
const report = await rebuildRollups(platform.db.sql);
console.log(`Rollups recomputed: ${report.events} events -> ${report.rows} hourly rows, ${report.conversations} conversations in ${Date.now() - started} ms`);
await platform.close();
