import { createLogger, createPlatform, exitOnConfigError, loadConfig, readSettings, stopOnSignals, type Config } from '@asistente/kit';
import { seedAndAnnounce } from './demo/announce.js';
import { buildGateway, topologyOf, type Topology } from './gateway.js';
import { embeddedSettings } from './routing-table.js';
import { settings, upstreams } from './settings.js';

/**
 * `npm start`: the whole product in one process on an embedded database,
 * or, with service URLs configured, the edge of the distributed topology.
 */
let config: Config;
let topology: Topology;
try {
  config = loadConfig();
  topology = topologyOf(readSettings(upstreams, process.env));
} catch (error) {
  exitOnConfigError(error);
}

const log = createLogger(config.LOG_LEVEL, 'gateway');
// Armed before the database opens: Ctrl+C at any moment closes it (a second Ctrl+C at once, still closing it).
const stop = stopOnSignals({ log, embedded: !config.DATABASE_URL, say: (line) => console.log(line) });
// Embedded, every service runs here: the settings each declares are checked with the gateway's before anything opens.
const declared = [settings, upstreams, ...(topology === 'embedded' ? await embeddedSettings() : [])];
// In front of remote services the gateway publishes nothing: no NATS connection, no relay.
const platform = await createPlatform(config, 'gateway', { log, events: topology === 'embedded', declared }).catch(exitOnConfigError);
const app = await buildGateway(platform, topology).catch(async (error: unknown) => {
  // Not left open by a failed start: an embedded database would stay locked.
  await platform.close();
  throw error;
});
stop.serve(app, platform);

if (!stop.requested) {
  const address = await app.listen({ port: config.PORT, host: config.HOST }).catch((error: unknown) => stop.abort(error));
  if (address) {
    platform.log.info({ topology, address }, `Mi Asistente.IA listening on ${address}`);
    // The one line a person running `npm start` looks for among the JSON logs.
    console.log(`\n  Mi Asistente.IA (${topology}) en http://localhost:${new URL(address).port}\n`);

    if (platform.settings(settings).DEMO || process.argv.includes('--demo')) {
      if (topology === 'embedded') await seedAndAnnounce(app, platform, `http://localhost:${config.PORT}`);
      else platform.log.warn('--demo seeds the embedded app; for a distributed deployment run node gateway/dist/demo-cli.js');
    }
  }
}
