import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSigner } from 'fast-jwt';
import postgres from 'postgres';
import t from 'tap';
import { generateKey } from '@asistente/kit';
import { createTestDatabase, insertAccount } from '@asistente/kit/testing';
import { migratedDataDir, TEST_APP_NODE_ARGS } from '@asistente/kit/testing/migrated-data-dir';
import { openStream } from './support/live-stream.js';
import { ROUTES } from '../src/routing-table.js';

/**
 * SIGTERM with a live stream open ends every kind of process within 10 s:
 * the embedded app, a service alone, and the distributed gateway in front of
 * it; the stream is ended by the server with a reconnect hint. Processes run
 * from the build, as in production.
 */
const root = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
const { DATABASE_URL = '' } = process.env;
const NEEDS_PG = DATABASE_URL ? false : 'set DATABASE_URL to run a service and the gateway as separate processes';
const LIMIT_MS = 10_000;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Proc {
  child: ChildProcess;
  output: string[];
  exit: Promise<number | null>;
}

function start(args: string[], env: Record<string, string>, command = process.execPath): Proc {
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exit };
}

/** A process as `npm start` or a manifest runs it: the build `npm test` made first. */
const built = (entry: string) => [...TEST_APP_NODE_ARGS, root(entry)];

async function waitReady(proc: Proc, port: number, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && proc.child.exitCode === null) {
    if (await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready on :${port}\n${proc.output.slice(-20).join('\n')}`);
}

async function terminate(proc: Proc): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  proc.child.kill('SIGTERM');
  const killer = setTimeout(() => proc.child.kill('SIGKILL'), LIMIT_MS + 5_000);
  const code = await proc.exit;
  clearTimeout(killer);
  return { code, ms: Date.now() - started };
}

t.test('embedded app: SIGTERM with a live stream open exits within 10 s, the stream told to reconnect', async (t) => {
  const dataDir = await migratedDataDir('shutdown-');
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const proc = start(built('gateway/dist/main.js'), { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SCRYPT_COST: '10' });
  t.teardown(() => void proc.child.kill('SIGKILL'));
  await waitReady(proc, port);
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Ana', lastName: 'López', email: `ana.${randomUUID()}@ejemplo.es`, password: 'clave-larga-1' }),
  });
  const { token } = (await res.json()) as { token: string };
  const stream = await openStream(`http://127.0.0.1:${port}/api/analytics/stream`, token);
  const { code, ms } = await terminate(proc);
  t.equal(code, 0, 'a clean exit');
  t.ok(ms < LIMIT_MS, `exited in ${ms} ms`);
  t.match(await stream.ended, /retry: \d+\nevent: reconnect/, 'the stream was ended with a reconnect hint');
});

t.test('a process whose parent dies without passing the signal on shuts down instead of living on', async (t) => {
  const dataDir = await migratedDataDir('orphan-');
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  // What `npm start` did: a shell between the signal and the server; the shell is killed, the server orphaned.
  const command = `${process.execPath} ${built('gateway/dist/main.js').join(' ')} & wait`;
  const shell = start(['-c', command], { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, '/bin/sh');
  await waitReady(shell, port);
  shell.child.kill('SIGKILL');
  await shell.exit;
  const deadline = Date.now() + LIMIT_MS + 2_000;
  let serving = true;
  while (serving && Date.now() < deadline) {
    serving = await fetch(`http://127.0.0.1:${port}/health`).then(() => true, () => false);
    if (serving) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.notOk(serving, 'the orphaned server stopped by itself');
});

t.test('a service alone and the distributed gateway in front of it: each exits within 10 s with a stream open', { skip: NEEDS_PG }, async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const secret = randomBytes(32).toString('hex');
  const suffix = randomBytes(4).toString('hex');
  const common = {
    DATABASE_URL: database.url!,
    JWT_SECRET: secret,
    SECRETS_KEYS: `k1:${generateKey()}`,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    NATS_URL: process.env.NATS_URL ?? '',
    NATS_STREAM: `SHUT_${suffix}`,
    EVENTS_SUBJECT_PREFIX: `shut${suffix}`,
  };
  const analyticsPort = await freePort();
  const analytics = start(built('services/analytics/dist/server.js'), { ...common, PORT: String(analyticsPort), MIGRATE_ON_START: 'true' });
  t.teardown(() => void analytics.child.kill('SIGKILL'));
  await waitReady(analytics, analyticsPort);

  const sql = postgres(database.url!, { max: 1, onnotice: () => {} });
  const userId = await insertAccount(sql, { email: `ana.${suffix}@ejemplo.es` });
  await sql.end();
  const sign = createSigner({ key: secret, iss: 'mi-asistente', aud: 'mi-asistente-api', expiresIn: 60_000 });
  const token = sign({ sub: userId, jti: randomUUID() });

  const upstream = `http://127.0.0.1:${analyticsPort}`;
  const gatewayPort = await freePort();
  const urls = Object.fromEntries(ROUTES.map((r) => [r.urlVariable, upstream]));
  const gateway = start(built('gateway/dist/main.js'), { ...common, ...urls, PORT: String(gatewayPort), MIGRATE_ON_START: 'false' });
  t.teardown(() => void gateway.child.kill('SIGKILL'));
  await waitReady(gateway, gatewayPort);

  const throughGateway = await openStream(`http://127.0.0.1:${gatewayPort}/api/analytics/stream`, token);
  const gatewayStop = await terminate(gateway);
  t.equal(gatewayStop.code, 0, 'gateway: clean exit');
  t.ok(gatewayStop.ms < LIMIT_MS, `gateway exited in ${gatewayStop.ms} ms`);
  await throughGateway.ended;

  const direct = await openStream(`${upstream}/analytics/stream`, token);
  const serviceStop = await terminate(analytics);
  t.equal(serviceStop.code, 0, 'service: clean exit');
  t.ok(serviceStop.ms < LIMIT_MS, `service exited in ${serviceStop.ms} ms`);
  t.match(await direct.ended, /event: reconnect/, 'its stream was told to reconnect');
});
