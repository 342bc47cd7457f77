import type { FastifyPluginAsync } from 'fastify';
import { authPlugin } from './auth/plugin.js';
import { exitOnConfigError } from './boot-errors.js';
import { loadConfig, type Config } from './config.js';
import { createHttpApp, trustProxySetting } from './http/app.js';
import { healthRoutes } from './http/health.js';
import { createLogger } from './logger.js';
import { createPlatform, type Platform } from './platform.js';
import type { SettingsDefinition } from './settings.js';
import { stopOnSignals } from './shutdown.js';

/** A service is a Fastify plugin that receives the process's platform. */
export type ServicePlugin = FastifyPluginAsync<{ platform: Platform }>;

/**
 * Boots one service as its own process (distributed topology): config,
 * platform, /health and /ready, the plugin, graceful shutdown on SIGTERM. The stop is armed before
 * anything opens: a signal or the launcher's death while it starts (connecting to NATS, migrating) still
 * ends it within its deadline. `settings` are what the service declares (its settings.ts, the sibling URLs
 * it may ask): checked with the config, before anything opens.
 */
export async function runService(name: string, plugin: ServicePlugin, defaultPort: number, settings: readonly SettingsDefinition[] = []): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env, process.env.PORT ? {} : { PORT: defaultPort });
  } catch (error) {
    exitOnConfigError(error);
  }
  const log = createLogger(config.LOG_LEVEL, name);
  const stop = stopOnSignals({ log, embedded: !config.DATABASE_URL });
  const platform = await createPlatform(config, name, { log, declared: settings }).catch(exitOnConfigError);
  const app = createHttpApp({
    log: platform.log,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    streams: platform.streams,
    metrics: platform.metrics,
  });
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  await app.register(healthRoutes, { sql: platform.db.sql, bus: platform.bus, name });
  await app.register(plugin, { platform });
  stop.serve(app, platform);
  if (stop.requested) return;
  await app.listen({ port: config.PORT, host: config.HOST }).catch((error: unknown) => stop.abort(error));
}
