import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ConfigError, createHttpApp, createLogger, createPlatform, generateKey, healthRoutes, loadConfig, MemoryBus, openDatabase } from '../src/index.js';

const log = createLogger('silent', 'test');
const realSecret = 'x'.repeat(48);

/** A TCP peer that accepts and never answers: a hung database. */
async function hungServer(t: { teardown(fn: () => unknown): void }): Promise<number> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return (server.address() as { port: number }).port;
}

t.test('outside embedded mode a missing or development JWT secret stops the boot with one line', async (t) => {
  const base = { DATABASE_URL: 'postgres://u@127.0.0.1:1/db', SECRETS_KEYS: `k1:${generateKey()}`, LOG_LEVEL: 'silent' as const };
  const missing = await createPlatform(loadConfig({}, base), 'test', { log }).catch((e: unknown) => e);
  t.type(missing, ConfigError);
  t.match((missing as Error).message, /^Invalid configuration: JWT_SECRET is required when DATABASE_URL is set/);
  const dev = await createPlatform(loadConfig({}, { ...base, JWT_SECRET: 'dev-only-jwt-secret-do-not-use-in-production' }), 'test', { log }).catch((e: unknown) => e);
  t.match((dev as Error).message, /JWT_SECRET holds a development value/);
  const devKeys = await createPlatform(
    loadConfig({}, { ...base, JWT_SECRET: realSecret, SECRETS_KEYS: 'dev:ZGV2LW9ubHktc2VjcmV0cy1rZXktZG8tbm90LXVzZSE=' }),
    'test',
    { log },
  ).catch((e: unknown) => e);
  t.match((devKeys as Error).message, /SECRETS_KEYS holds a development value/);
});

t.test('a service started with MIGRATE_ON_START and an unreachable database prints one line and exits 1', async (t) => {
  // The build, as production runs it (`npm test` builds first): through tsx the same boot cost twice the CPU.
  const server = fileURLToPath(new URL('../../../services/auth/dist/server.js', import.meta.url));
  const result = spawnSync(process.execPath, [server], {
    env: { ...process.env, DATABASE_URL: 'postgres://u@127.0.0.1:1/db', JWT_SECRET: realSecret, SECRETS_KEYS: `k1:${generateKey()}`, MIGRATE_ON_START: 'true', NATS_URL: '', LOG_LEVEL: 'silent', PORT: '0' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(result.status, 1);
  const lines = result.stderr.trim().split('\n');
  t.equal(lines.length, 1, `one line: ${result.stderr}`);
  t.match(lines[0], /^Database unreachable at 127\.0\.0\.1:1\/db \(ECONNREFUSED\)/);
});

/** Runs an entry point from source with `env` over this one's; its exit status and stderr lines. */
function boot(entry: string, env: Record<string, string>): { status: number | null; lines: string[] } {
  const file = fileURLToPath(new URL(`../../../${entry}`, import.meta.url));
  const result = spawnSync(process.execPath, ['--import=tsx', '--conditions=asistente-source', file], {
    env: { ...process.env, NATS_URL: '', LOG_LEVEL: 'silent', PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, lines: result.stderr.trim().split('\n') };
}

t.test("a typo in a service's own setting or a sibling's URL stops its boot with one line, before the database is reached", async (t) => {
  // The database is unreachable: reaching it would print that instead.
  const distributed = { DATABASE_URL: 'postgres://u@127.0.0.1:1/db', JWT_SECRET: realSecret, SECRETS_KEYS: `k1:${generateKey()}` };
  const own = boot('services/auth/src/server.ts', { ...distributed, SCRYPT_COST: 'diecisiete' });
  t.equal(own.status, 1);
  t.same(own.lines, ['Invalid configuration: SCRYPT_COST must be an integer between 10 and 20 (got "diecisiete")']);
  const sibling = boot('services/ai/src/server.ts', { ...distributed, CONTACTS_URL: 'contacts:3002' });
  t.equal(sibling.status, 1);
  t.same(sibling.lines, ['Invalid configuration: CONTACTS_URL must match ^https?://'], 'a URL is never echoed');
});

t.test("the embedded gateway checks every service's settings before it opens the database or listens", async (t) => {
  const { status, lines } = boot('gateway/src/main.ts', { DATABASE_URL: '', DATA_DIR: 'memory://', WHATSAPP_AUTOMATED_GAP_MS: 'mucho' });
  t.equal(status, 1);
  t.same(lines, ['Invalid configuration: WHATSAPP_AUTOMATED_GAP_MS must be an integer between 0 and 60000 (got "mucho")']);
});

t.test('a hung database: /ready answers 503 in about two seconds, requests 503 in Spanish within the connect timeout', async (t) => {
  const port = await hungServer(t);
  const db = await openDatabase({ databaseUrl: `postgres://u@127.0.0.1:${port}/db`, dataDir: 'memory://', poolMax: 2, migrateOnStart: false, log });
  t.teardown(() => db.sql.end({ timeout: 0 }));
  const app = createHttpApp({ log, bodyLimit: 1024 });
  await app.register(healthRoutes, { sql: db.sql, bus: new MemoryBus(), name: 'test' });
  app.get('/data', async () => db.sql`select 1`);
  await app.ready();
  t.teardown(() => app.close());

  let started = Date.now();
  const ready = await app.inject({ url: '/ready' });
  const readyMs = Date.now() - started;
  t.equal(ready.statusCode, 503);
  t.match(ready.json(), { status: 'not-ready', checks: { database: 'down' } });
  t.ok(readyMs < 3500, `/ready took ${readyMs} ms`);

  started = Date.now();
  const data = await app.inject({ url: '/data' });
  const dataMs = Date.now() - started;
  t.equal(data.statusCode, 503);
  t.match(data.json(), { statusCode: 503, code: 'DATABASE_UNAVAILABLE', error: 'Service Unavailable', message: /no está disponible/ });
  t.ok(dataMs < 8000, `the request took ${dataMs} ms`);
});
