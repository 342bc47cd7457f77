import { createPlatform, exitOnConfigError, loadConfig, type Config } from '@asistente/kit';
import { seedAndAnnounce } from './demo/announce.js';
import { buildGateway } from './gateway.js';
import { embeddedSettings } from './routing-table.js';
import { settings } from './settings.js';

/**
 * Seeds the demo account into a running distributed deployment (DATABASE_URL
 * and NATS_URL): the services run in this process just long enough to write
 * through their outboxes; the deployment's analytics service consumes the
 * events. For the embedded app use `npm run demo` (= `npm start -- --demo`),
 * since an embedded database serves one process.
 */
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  exitOnConfigError(error);
}
if (!config.DATABASE_URL) {
  console.error('DATABASE_URL is not set: for the embedded app run `npm run demo` instead.');
  process.exit(2);
}
const platform = await createPlatform(config, 'demo', { declared: [settings, ...(await embeddedSettings())] }).catch(exitOnConfigError);
const app = await buildGateway(platform, 'embedded');
await app.ready();
await seedAndAnnounce(app, platform, `http://localhost:${config.PORT}`);
await app.close();
await platform.close();
