import { Type, type Static } from '@sinclair/typebox';
import { parseAddressList } from './net/address-list.js';
import { ConfigError, readSettings, type SettingsDefinition, type SettingsSource } from './settings.js';

export { ConfigError } from './settings.js';

/**
 * Marks a variable every process of the distributed topology needs at boot (all are optional embedded).
 * The deploy manifests are checked against these marks (gateway/test/deploy-manifests.test.ts).
 */
const DISTRIBUTED_REQUIRED = { distributedRequired: true } as const;

/**
 * The variables the platform itself reads (listening, database, events, tokens, secrets, the edge's HTTP
 * rules), validated once at boot so a typo stops the process with a message naming the variable instead of
 * failing later in some request. What a service or the gateway reads is declared in its own settings.ts
 * and read with `platform.settings(...)`, by the same rules.
 */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  // 'localhost' listens on both 127.0.0.1 and ::1, whichever a client resolves; containers set 0.0.0.0.
  HOST: Type.String({ minLength: 1, default: 'localhost' }),
  /**
   * Prometheus metrics (`GET /metrics`) on a listener of their own at this port, never on PORT: the
   * gateway's public port never serves them. Unset (the default): no listener and no metrics collected.
   */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', ...DISTRIBUTED_REQUIRED })),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  /**
   * PostgreSQL cancels a service's statement after this long (0 = never), so a hung database answers 503
   * in seconds. Migrations use their own connection; imports and rebuilds lift it for their transaction.
   */
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 5_000 }),
  MIGRATE_ON_START: Type.Boolean({ default: true }),
  NATS_URL: Type.Optional(Type.String({ pattern: '^(nats|tls)://', ...DISTRIBUTED_REQUIRED })),
  /**
   * Names this deployment on a shared NATS: the stream becomes `<NATS_STREAM>_<name>` and the subjects
   * `<EVENTS_SUBJECT_PREFIX>_<name>.>` (unchanged for the default), and a process refuses to start on a
   * stream another deployment created.
   */
  DEPLOYMENT_NAME: Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$', default: 'default' }),
  NATS_STREAM: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'EVENTS' }),
  EVENTS_SUBJECT_PREFIX: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'events' }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32, ...DISTRIBUTED_REQUIRED })),
  /** Key ring for secrets at rest, `id:base64key[,id:base64key...]`, first is primary; checked by the secrets module. */
  SECRETS_KEYS: Type.Optional(Type.String({ minLength: 1, ...DISTRIBUTED_REQUIRED })),
  JWT_ISSUER: Type.String({ minLength: 1, default: 'mi-asistente' }),
  JWT_AUDIENCE: Type.String({ minLength: 1, default: 'mi-asistente-api' }),
  JWT_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 2_592_000, default: 604_800 }),
  /**
   * Requests per minute one personal access token may make, counted in PostgreSQL by every gateway replica and
   * by the ai service for the further calls of an MCP batch: both must be given the same value.
   */
  RATE_LIMIT_TOKEN_MAX: Type.Integer({ minimum: 1, default: 300 }),
  CORS_ORIGINS: Type.String({ default: '' }),
  /**
   * Proxies allowed to tell the client's address (X-Forwarded-For): empty (default) trusts none, so
   * per-address limits use the connection's address; a hop count (`1`) or addresses/CIDRs
   * (`10.0.0.0/8,loopback`) of the proxies in front, as Fastify's trustProxy takes them.
   */
  TRUST_PROXY: Type.String({ pattern: '^[A-Za-z0-9.:/, _-]*$', default: '' }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  /**
   * How often the outbox relay looks for rows nobody announced. A write pokes it (and PostgreSQL notifies
   * it) at once, so this only bounds the delay when both were missed, e.g. after a relay restart.
   */
  OUTBOX_POLL_MS: Type.Integer({ minimum: 10, default: 1000 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** The address users reach the app at: base of OAuth redirect URIs and of links in mail (tracking). */
  PUBLIC_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:3000' }),
  /**
   * Private or special addresses that hosts users type (IMAP, SMTP) may still reach, and without TLS:
   * comma-separated IPs or CIDR ranges, as Mastodon reads it (`127.0.0.1,192.168.1.0/24`). Empty: none.
   */
  ALLOWED_PRIVATE_ADDRESSES: Type.String({ pattern: '^[0-9A-Fa-f.:/, ]*$', default: '' }),
});

export type Config = Static<typeof ConfigSchema>;

const PLATFORM_SETTINGS: SettingsDefinition<typeof ConfigSchema.properties> = { schema: ConfigSchema };

/** The variables marked DISTRIBUTED_REQUIRED in the schema: what a process outside embedded mode cannot boot without. */
export function distributedRequiredVariables(): (keyof Config)[] {
  return Object.entries(ConfigSchema.properties)
    .filter(([, schema]) => (schema as { distributedRequired?: boolean }).distributedRequired === true)
    .map(([name]) => name as keyof Config);
}

/** The stream and subject prefix of this deployment (see DEPLOYMENT_NAME). */
export function eventNames(config: Pick<Config, 'DEPLOYMENT_NAME' | 'NATS_STREAM' | 'EVENTS_SUBJECT_PREFIX'>): {
  stream: string;
  subjectPrefix: string;
  deployment: string;
} {
  const name = config.DEPLOYMENT_NAME;
  const own = name !== 'default';
  return {
    stream: own ? `${config.NATS_STREAM}_${name}` : config.NATS_STREAM,
    subjectPrefix: own ? `${config.EVENTS_SUBJECT_PREFIX}_${name}` : config.EVENTS_SUBJECT_PREFIX,
    deployment: name,
  };
}

/** Reads the platform's variables from `env` and the `overrides` a caller gives; empty strings count as unset. */
export function loadConfig(env: SettingsSource = process.env, overrides: SettingsSource = {}): Config {
  const config = readSettings(PLATFORM_SETTINGS, { ...env, ...overrides });
  try {
    parseAddressList(config.ALLOWED_PRIVATE_ADDRESSES);
  } catch (error) {
    throw new ConfigError('ALLOWED_PRIVATE_ADDRESSES', `must list IP addresses or CIDR ranges: ${(error as Error).message}`);
  }
  return config;
}
