import type { PersonalTokenScope } from '@asistente/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { authPlugin } from '../auth/plugin.js';
import { loadConfig, type Config } from '../config.js';
import { createHttpApp, type App } from '../http/app.js';
import { createLogger, type Logger } from '../logger.js';
import { createPlatform, type Platform } from '../platform.js';
import { generateKey } from '../secrets/keyring.js';
import type { ServicePlugin } from '../service.js';
import type { SettingsDefinition, SettingsOf, SettingsSource } from '../settings.js';
import { pgliteTemplate } from './pglite-template.js';
import { postgresTemplate } from './postgres-template.js';
import { createTestDatabase } from './test-database.js';

export { createTestDatabase, type TestDatabase } from './test-database.js';
export { insertAccount } from './accounts.js';
export { oauthCookie } from './oauth-browser.js';
export { readZip } from './zip-reader.js';
export { waitUntil } from './wait-until.js';
export { readAccountExportPart } from './account-export-pages.js';
export { schemasThatDoNotCompile, type RouteWithSchema } from './route-schemas.js';
export { takeServerTurn, type ServerShare, type TimedTest } from './server-turn.js';
export { messagingConformance, type ConformanceTest, type DeliveredMessage, type FarCustomer, type MessagingHarness } from './messaging-conformance.js';

/** Values a test sets, as the environment would (typed values are taken as they are). */
export type TestSettings = Readonly<Record<string, string | number | boolean | undefined>>;

/** The part of tap's Test the helpers use, so the kit does not depend on tap. */
export interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface TestPlatformOptions {
  /** Use JetStream when NATS_URL is set (a stream and subject prefix of its own). */
  nats?: boolean;
  /**
   * The platform's config and any service's settings (`GOOGLE_API_URL`, `CONTACTS_URL`): the test's whole
   * environment, no variable of the process's own is read.
   */
  config?: Partial<Config> & TestSettings;
  /** A logger of the test's own, e.g. one writing to memory to assert what is (not) logged. */
  log?: Logger;
}

/**
 * A platform on a database of its own (real Postgres when DATABASE_URL is
 * set, in-memory PGlite otherwise), cheap password hashing, silent logs, and
 * everything closed and dropped when the test ends.
 */
export async function createTestPlatform(t: Teardown, options: TestPlatformOptions = {}): Promise<Platform> {
  const serverUrl = process.env.DATABASE_URL;
  // Copied from a migrated template: the platform's own migration then finds nothing to apply.
  const migrated = serverUrl ? await postgresTemplate(serverUrl, createLogger('silent', 'test')) : undefined;
  const database = await createTestDatabase(serverUrl, migrated);
  const suffix = randomBytes(4).toString('hex');
  const natsUrl = options.nats ? process.env.NATS_URL : undefined;
  const source: SettingsSource = {
    DATA_DIR: 'memory://',
    DATABASE_URL: database.url,
    NATS_URL: natsUrl,
    NATS_STREAM: `TEST_${suffix}`,
    EVENTS_SUBJECT_PREFIX: `t${suffix}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    // A database URL means the distributed rules, which require a configured key ring.
    SECRETS_KEYS: `test:${generateKey()}`,
    // Cheap password hashing for whichever service hashes (the variable is its; the default is for production).
    SCRYPT_COST: 10,
    LOG_LEVEL: 'silent',
    ...options.config,
  };
  const config: Config = loadConfig({}, source);
  const log = options.log ?? createLogger(config.LOG_LEVEL, 'test');
  const template = config.DATABASE_URL ? undefined : await pgliteTemplate(log);
  const platform = await createPlatform(config, 'test', { log, pgliteTemplate: template, source });
  t.teardown(async () => {
    await platform.close();
    await database.drop();
  });
  return platform;
}

/**
 * The same platform with some settings taken as `values` say (a provider left unconfigured with `undefined`),
 * for one app beside the test's main one. Taken as given, unchecked: the test's own choice.
 */
export function withSettings(platform: Platform, values: TestSettings): Platform {
  const settings = <D extends SettingsDefinition>(definition: D): SettingsOf<D> => {
    const changed = Object.keys(definition.schema.properties).filter((key) => key in values);
    return { ...platform.settings(definition), ...Object.fromEntries(changed.map((key) => [key, values[key]])) } as SettingsOf<D>;
  };
  return { ...platform, settings };
}

/** One service plugin on a bare app, as its own process would serve it (no /api prefix). */
export async function buildServiceApp(t: Teardown, plugin: ServicePlugin, platform: Platform): Promise<App> {
  const app = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES, streams: platform.streams });
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  await app.register(plugin, { platform });
  await app.ready();
  t.teardown(() => app.close());
  return app;
}

/**
 * Several service plugins under /api in one app, as the embedded gateway mounts them, with the platform's
 * service client answered in-process: for tests of a service that asks its siblings (tools, sync).
 */
export async function buildServicesApp(t: Teardown, plugins: ServicePlugin[], platform: Platform): Promise<App> {
  const app = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES, streams: platform.streams });
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  for (const plugin of plugins) await app.register(plugin, { prefix: '/api', platform });
  platform.services.attachInProcess((request) => app.inject(request));
  await app.ready();
  t.teardown(() => app.close());
  return app;
}

/**
 * A valid token for `userId` (a fresh user id by default), as auth would issue it. The user need not
 * exist: this process's token check is told to take it as an existing user (tokens of unknown users
 * are refused otherwise). With `scopes`, it is what the gateway makes of a personal access token.
 */
export function signToken(
  app: App,
  userId: string = randomUUID(),
  scopes?: PersonalTokenScope[],
): { userId: string; token: string; authorization: string } {
  app.revocations.vouchForTestUser(userId);
  const token = app.jwt.sign({ sub: userId, jti: randomUUID(), ims: Date.now(), ...(scopes ? { scp: scopes } : {}) });
  return { userId, token, authorization: `Bearer ${token}` };
}
