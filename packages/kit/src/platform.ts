import type { Logger } from 'pino';
import { resolveJwtSecret } from './auth/jwt-secret.js';
import type { TokenSettings } from './auth/plugin.js';
import { Revocations, type SessionsEnded } from './auth/revocations.js';
import { eventNames, type Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import type { EventBus } from './events/bus.js';
import { ServiceClient } from './http/service-client.js';
import { LiveStreams } from './http/live-streams.js';
import { JetStreamBus } from './events/jetstream-bus.js';
import { MemoryBus } from './events/memory-bus.js';
import { Outbox } from './events/outbox.js';
import { OutboxRelay } from './events/relay.js';
import { createLogger } from './logger.js';
import { startTracing } from './observability/tracing/start-tracing.js';
import { Metrics, meteredPublishing, processApplicationName, serveProcessMetrics } from './observability/metrics/index.js';
import { assertProductionSecrets } from './production-secrets.js';
import { readSettings, type SettingsDefinition, type SettingsOf, type SettingsSource } from './settings.js';
import type { SecretBox } from './secrets/envelope.js';
import { resolveSecretBox } from './secrets/boot.js';

/**
 * What one process shares among the service plugins it mounts: config,
 * logger, the database client, the event bus and the outbox relay. The
 * embedded process builds one for all services; a distributed process builds
 * one for its single service.
 */
export interface Platform {
  config: Config;
  log: Logger;
  db: Database;
  bus: EventBus;
  relay: OutboxRelay;
  tokens: TokenSettings;
  revocations: Revocations;
  /** Seals and opens third-party secrets (API keys, refresh tokens) stored in the database. */
  secrets: SecretBox;
  /** Calls a sibling service's API on behalf of a user (short-lived token; in-process when embedded). */
  services: ServiceClient;
  /** This process's open live streams (SSE): ended at shutdown and when their session ends. */
  streams: LiveStreams;
  /** This process's Prometheus registry: every service it mounts registers its metrics here. */
  metrics: Metrics;
  /** The port `/metrics` is served on; undefined when METRICS_PORT is unset. */
  metricsPort: number | undefined;
  /**
   * The settings a service (or the gateway) declares in its settings.ts, read from the same source as the
   * config (the environment, or a test's values) by the same rules: a bad value is a `ConfigError` naming it.
   */
  settings<D extends SettingsDefinition>(definition: D): SettingsOf<D>;
  /** The outbox of a service's schema, watched by this process's relay. */
  outbox(schema: string): Outbox;
  close(): Promise<void>;
}

export interface PlatformOptions {
  log?: Logger;
  /**
   * false: no NATS connection and no relay, for a process that publishes
   * nothing (the gateway in front of remote services). Default true.
   */
  events?: boolean;
  /** Embedded database only: a migrated dump to start from (tests). */
  pgliteTemplate?: Blob | undefined;
  /** Where `settings()` and the sibling URLs are read from; the process's environment by default. */
  source?: SettingsSource;
  /**
   * The settings the services this process mounts declare (and the sibling URLs they may ask): checked
   * before anything opens, so a typo stops the boot with one line (exitOnConfigError), as the config does.
   */
  declared?: readonly SettingsDefinition[];
}

/** Bus signal carrying a `SessionsEnded` notice to every process. */
const SESSIONS_ENDED = 'sessions-ended';

export async function createPlatform(config: Config, name: string, options: PlatformOptions = {}): Promise<Platform> {
  const { log = createLogger(config.LOG_LEVEL, name), events = true, source = process.env } = options;
  assertProductionSecrets(config);
  const read = settingsReader(source);
  for (const definition of options.declared ?? []) read(definition);
  // Before the database and any Fastify app: queries and requests get spans from the first one (OTEL_* set only).
  const tracing = startTracing(name);
  // Before the database opens: a bad or missing key ring stops the boot without touching anything.
  const secrets = await resolveSecretBox(
    { keys: config.SECRETS_KEYS, databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR },
    log,
  );
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: config.DB_POOL_MAX,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    migrateOnStart: config.MIGRATE_ON_START,
    applicationName: processApplicationName(name),
    log,
    pgliteTemplate: options.pgliteTemplate,
  });
  const jetstream = events && config.NATS_URL ? new JetStreamBus({ url: config.NATS_URL, ...eventNames(config), log }) : undefined;
  // A stream owned by another deployment stops the boot here, with one line (exitOnConfigError).
  await jetstream?.started().catch(async (error: unknown) => {
    await jetstream.close();
    await db.close();
    throw error;
  });
  const bus: EventBus = jetstream ?? new MemoryBus();
  const metrics = new Metrics(name, config.METRICS_PORT !== undefined);
  const relay = new OutboxRelay(db.sql, metrics.enabled ? meteredPublishing(bus, metrics) : bus, log, { pollMs: config.OUTBOX_POLL_MS });
  const secret = await resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR, log);
  const outboxes = new Map<string, Outbox>();
  if (events) relay.start();
  if (events && db.kind === 'postgres') relay.listenForCommits();
  const tokens = { secret, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, ttlSeconds: config.JWT_TTL_SECONDS };
  const revocations = await Revocations.for(db);
  const streams = new LiveStreams();
  const metricsListener =
    config.METRICS_PORT === undefined
      ? undefined
      : await serveProcessMetrics({
          metrics,
          port: config.METRICS_PORT,
          host: config.HOST,
          db,
          poolMax: config.DB_POOL_MAX,
          log,
          ...(events ? { outboxTables: () => [...outboxes.values()].map((outbox) => outbox.table) } : {}),
          ...(jetstream ? { consumerLag: () => jetstream.consumerLag() } : {}),
        });
  // A session ended here (logout, password change) closes its live streams in every process.
  revocations.onEnded((ended) => bus.signal(SESSIONS_ENDED, JSON.stringify(ended)));
  bus.onSignal(SESSIONS_ENDED, (payload) => streams.endSessions(JSON.parse(payload) as SessionsEnded));
  return {
    config,
    log,
    db,
    bus,
    relay,
    tokens,
    services: new ServiceClient(source, tokens, log),
    settings: read,
    revocations,
    streams,
    secrets,
    metrics,
    metricsPort: metricsListener?.port,
    outbox(schema) {
      // Without events nothing relays to NATS: an event appended here would never reach a consumer.
      if (!events) throw new Error(`${name} was created without events; it cannot write to the ${schema} outbox`);
      let outbox = outboxes.get(schema);
      if (!outbox) {
        outbox = new Outbox(schema, relay.poke);
        outboxes.set(schema, outbox);
        relay.watch(outbox.table);
      }
      return outbox;
    },
    async close() {
      await metricsListener?.close();
      await relay.stop();
      await relay.drain().catch((error: unknown) => log.warn({ err: error }, 'outbox not drained at shutdown'));
      await bus.close();
      await db.close();
      // Last: the relay's final publishes are spans too.
      await tracing?.shutdown();
    },
  };
}

/** Reads each definition once from `source` (a service may ask for its settings from several places). */
function settingsReader(source: SettingsSource): <D extends SettingsDefinition>(definition: D) => SettingsOf<D> {
  const read = new WeakMap<SettingsDefinition, unknown>();
  return <D extends SettingsDefinition>(definition: D): SettingsOf<D> => {
    if (!read.has(definition)) read.set(definition, readSettings(definition, source));
    return read.get(definition) as SettingsOf<D>;
  };
}
