import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseAddressList } from './net/address-list.js';

/**
 * Marks a variable every process of the distributed topology needs at boot (all are optional embedded).
 * The deploy manifests are checked against these marks (gateway/test/deploy-manifests.test.ts).
 */
const DISTRIBUTED_REQUIRED = { distributedRequired: true } as const;

/**
 * Every environment variable the product reads, validated once at boot so a
 * typo stops the process with a message naming the variable instead of
 * failing later in some request.
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
  SCRYPT_COST: Type.Integer({ minimum: 10, maximum: 20, default: 17 }),
  /** Password hashes computed at once (each holds ~128 MiB at cost 17) and how many more may wait; beyond, 503. */
  HASH_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  HASH_QUEUE_MAX: Type.Integer({ minimum: 0, maximum: 10_000, default: 32 }),
  RATE_LIMIT_LOGIN_MAX: Type.Integer({ minimum: 1, default: 10 }),
  RATE_LIMIT_REGISTER_MAX: Type.Integer({ minimum: 1, default: 30 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
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
  /** Largest CSV/vCard upload POST /contacts/import accepts (64 MiB, ~800,000 contacts); beyond it a 413. */
  CONTACTS_IMPORT_MAX_BYTES: Type.Integer({ minimum: 1024, default: 67_108_864 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  AUTH_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  CONTACTS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  AI_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  ANALYTICS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  CALENDAR_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  WHATSAPP_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  EMAIL_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  TEAMS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  WEBHOOKS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  INBOX_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** The address users reach the app at: base of OAuth redirect URIs and of links in mail (tracking). */
  PUBLIC_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:3000' }),
  GOOGLE_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  GOOGLE_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** Google's endpoints, overridable for proxies and tests. */
  GOOGLE_AUTH_URL: Type.String({ pattern: '^https?://', default: 'https://accounts.google.com/o/oauth2/v2/auth' }),
  GOOGLE_TOKEN_URL: Type.String({ pattern: '^https?://', default: 'https://oauth2.googleapis.com/token' }),
  GOOGLE_REVOKE_URL: Type.String({ pattern: '^https?://', default: 'https://oauth2.googleapis.com/revoke' }),
  GOOGLE_API_URL: Type.String({ pattern: '^https?://', default: 'https://www.googleapis.com/' }),
  MICROSOFT_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  MICROSOFT_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  MICROSOFT_TENANT: Type.String({ minLength: 1, default: 'common' }),
  /** Microsoft identity platform and Graph, overridable for proxies and tests. */
  MICROSOFT_LOGIN_URL: Type.String({ pattern: '^https?://', default: 'https://login.microsoftonline.com' }),
  MICROSOFT_GRAPH_URL: Type.String({ pattern: '^https?://', default: 'https://graph.microsoft.com/v1.0' }),
  /** Mail servers of the OAuth providers (`imaps://` TLS, `imap://` STARTTLS or plain loopback; same for smtps/smtp). */
  GMAIL_IMAP_URL: Type.String({ pattern: '^imaps?://', default: 'imaps://imap.gmail.com:993' }),
  GMAIL_SMTP_URL: Type.String({ pattern: '^smtps?://', default: 'smtps://smtp.gmail.com:465' }),
  OUTLOOK_IMAP_URL: Type.String({ pattern: '^imaps?://', default: 'imaps://outlook.office365.com:993' }),
  OUTLOOK_SMTP_URL: Type.String({ pattern: '^smtps?://', default: 'smtp://smtp.office365.com:587' }),
  /**
   * Private or special addresses that hosts users type (IMAP, SMTP) may still reach, and without TLS:
   * comma-separated IPs or CIDR ranges, as Mastodon reads it (`127.0.0.1,192.168.1.0/24`). Empty: none.
   */
  ALLOWED_PRIVATE_ADDRESSES: Type.String({ pattern: '^[0-9A-Fa-f.:/, ]*$', default: '' }),
  /** First sync of a mailbox: how many days back, and at most how many messages per folder. */
  EMAIL_SYNC_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  EMAIL_SYNC_MAX_PER_FOLDER: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 2000 }),
  /** Mail accounts one user may connect; the next answers 409. */
  MAIL_MAX_ACCOUNTS: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /**
   * A mail larger than this is never fetched whole: opening it reads the start of its text and its list of
   * attachments, and each attachment streams from the server when downloaded (25 MB).
   */
  MAIL_MAX_MESSAGE_BYTES: Type.Integer({ minimum: 65_536, maximum: 1_073_741_824, default: 26_214_400 }),
  /** OpenAI-compatible API root (a proxy, an Azure-compatible endpoint, a test peer); the SDK's default otherwise. */
  OPENAI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** WhatsApp Web's socket address, for proxies and tests; Baileys' default otherwise. */
  WHATSAPP_WS_URL: Type.Optional(Type.String({ pattern: '^wss?://' })),
  /** Least time between two automatic WhatsApp answers of one account (plus up to half again at random). */
  WHATSAPP_AUTOMATED_GAP_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 2000 }),
  /**
   * An account that never linked stops retrying after this many failed connection attempts (state `failed`,
   * "Reintentar" starts again); a linked account keeps reconnecting with backoff.
   */
  WHATSAPP_CONNECT_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  /** …or once this long has passed since its first failed attempt, whichever comes first (3 minutes). */
  WHATSAPP_CONNECT_MAX_MS: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 180_000 }),
  /** WhatsApp's official Cloud API (Meta's Graph host), overridable for proxies and tests. */
  WHATSAPP_CLOUD_API_URL: Type.String({ pattern: '^https?://', default: 'https://graph.facebook.com' }),
  /** The token Meta echoes in the webhook's verification handshake (set the same in Meta's app dashboard). */
  WHATSAPP_CLOUD_VERIFY_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  /** The Meta app's secret: every webhook POST is signed with it (`X-Hub-Signature-256`). */
  WHATSAPP_CLOUD_APP_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * The system mailer, for password reset links: `smtp://user:pass@host:587` (STARTTLS when the server offers
   * it) or `smtps://user:pass@host:465` (TLS). Unset: no mail is sent; the owner asks the administrator, who
   * runs `asistente admin reset-password EMAIL`.
   */
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  /** The sender of the system mailer's mail, e.g. `Mi Asistente.IA <no-reply@example.com>`. */
  MAIL_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
  /** Password reset requests per address per window (one reset mail each); the gateway allows 5x per client address. */
  RATE_LIMIT_PASSWORD_RESET_MAX: Type.Integer({ minimum: 1, default: 5 }),
  RATE_LIMIT_PASSWORD_RESET_WINDOW_MS: Type.Integer({ minimum: 1000, default: 3_600_000 }),
  /** People one workspace may hold, members and pending invitations together. */
  MAX_WORKSPACE_MEMBERS: Type.Integer({ minimum: 1, maximum: 10_000, default: 50 }),
  WEB_DIST: Type.Optional(Type.String({ minLength: 1 })),
  /** Seed the demo account at start (same as `npm start -- --demo`). */
  DEMO: Type.Boolean({ default: false }),
});

export type Config = Static<typeof ConfigSchema>;

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

/** Values of these may hold a credential (a URL with a password): never echoed. */
const SENSITIVE = /SECRET|KEY|URL|PASSWORD|TOKEN/;

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

/** Reads the known variables from `env`; empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  Object.assign(raw, overrides);
  const withDefaults = Value.Default(ConfigSchema, raw);
  const converted = Value.Convert(ConfigSchema, withDefaults);
  const first = Value.Errors(ConfigSchema, converted).First();
  if (first) {
    const variable = first.path.replace(/^\//, '') || '(environment)';
    const shown = SENSITIVE.test(variable) ? '' : ` (got ${JSON.stringify(raw[variable] ?? null)})`;
    throw new ConfigError(variable, `${describe(first.schema)}${shown}`);
  }
  const config = converted as Config;
  try {
    parseAddressList(config.ALLOWED_PRIVATE_ADDRESSES);
  } catch (error) {
    throw new ConfigError('ALLOWED_PRIVATE_ADDRESSES', `must list IP addresses or CIDR ranges: ${(error as Error).message}`);
  }
  return config;
}

function describe(schema: Record<string, unknown>): string {
  if (schema.type === 'integer') {
    const range = [schema.minimum, schema.maximum].some((v) => v !== undefined)
      ? ` between ${String(schema.minimum ?? '-∞')} and ${String(schema.maximum ?? '∞')}`
      : '';
    return `must be an integer${range}`;
  }
  if (schema.type === 'boolean') return 'must be true or false';
  if (typeof schema.pattern === 'string') return `must match ${schema.pattern}`;
  if (typeof schema.minLength === 'number') return `must be at least ${schema.minLength} characters long`;
  if (Array.isArray(schema.anyOf)) {
    return `must be one of ${schema.anyOf.map((s: { const?: unknown }) => String(s.const)).join(', ')}`;
  }
  return 'is invalid';
}
