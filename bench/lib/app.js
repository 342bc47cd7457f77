import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startNode, stopAll, waitReady } from '../../scripts/lib/processes.js';
import { CSV_HEADER, csvRow } from './csv.js';

const root = (file) => fileURLToPath(new URL(`../../${file}`, import.meta.url));

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Where the servers' own output goes, so it does not bury the figures. */
export const LOG_FILE = root('bench/out/servers.log');
mkdirSync(path.dirname(LOG_FILE), { recursive: true });
const log = createWriteStream(LOG_FILE, { flags: 'a' });

/** `node <script>` as a named child on a free port, resolved once GET `readyPath` answers. */
export async function startServer(name, script, env, readyPath) {
  const port = await freePort();
  const child = startNode(name, script, { ...process.env, ...env, PORT: String(port) }, { output: log });
  await waitReady(`http://127.0.0.1:${port}${readyPath}`, child).catch((error) => {
    throw new Error(`${name}: ${error.message} (its output is in ${LOG_FILE})`);
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stopAll([child]) };
}

/** The benchmark's own JetStream stream, so runs leave nothing behind on the shared NATS. */
async function deleteStream(name) {
  const nc = await connect({ servers: process.env.NATS_URL });
  await (await jetstreamManager(nc)).streams.delete(name).catch(() => undefined);
  await nc.close();
}

export function startHelloWorld() {
  return startServer('hello', root('bench/lib/hello-server.js'), {}, '/');
}

/**
 * The list with no hop on `databaseUrl`, checking tokens signed with `jwtSecret`: the house's own handler
 * (bench/lib/floor-server.js), or with `lean` the leaner one an outside check builds (bench/lib/lean-floor.js).
 */
export function startFloor({ databaseUrl, jwtSecret, lean = false }) {
  const script = lean ? 'bench/lib/lean-floor.js' : 'bench/lib/floor-server.js';
  return startServer(lean ? 'lean floor' : 'floor', root(script), { DATABASE_URL: databaseUrl, JWT_SECRET: jwtSecret }, '/');
}

/**
 * The product as `npm start` runs it (one process; PGlite in a temporary data
 * directory unless `databaseUrl`), or with `distributed` the separate
 * processes of `npm run start:distributed` on `databaseUrl` and NATS_URL,
 * with a stream of their own (`replicas` of every service when given). `again`, the `restart` of an app stopped
 * before, starts it on the same data directory and secrets (tokens stay valid). `env` adds variables (METRICS_PORT, OTEL_*…).
 */
export async function startApp({ distributed = false, databaseUrl, replicas, again, env: extra = {} } = {}) {
  const dataDir = again?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'asistente-bench-'));
  const suffix = randomBytes(4).toString('hex');
  const env = {
    ...(again?.env ?? {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      LOG_LEVEL: 'warn',
      // The benchmark measures contacts, not password hashing.
      SCRYPT_COST: '10',
      JWT_SECRET: randomBytes(32).toString('hex'),
      SECRETS_KEYS: `bench:${randomBytes(32).toString('base64')}`,
      ...(distributed ? { NATS_STREAM: `BENCH_${suffix}`, EVENTS_SUBJECT_PREFIX: `bench${suffix}` } : { NATS_URL: '' }),
      ...(distributed && replicas ? { REPLICAS: String(replicas) } : {}),
    }),
    ...extra,
  };
  const script = distributed ? 'scripts/start-distributed.js' : 'gateway/dist/main.js';
  const app = await startServer(distributed ? 'app' : 'gateway', root(script), env, '/ready');
  return {
    url: app.url,
    /** The process serving (embedded: the whole product), to read its memory from /proc. */
    pid: app.pid,
    /** Embedded: PGlite's data directory, to open once the app is stopped. */
    pgDir: path.join(dataDir, 'pg'),
    restart: { dataDir, env },
    async stop({ keepData = false } = {}) {
      await app.stop();
      if (keepData) return;
      rmSync(dataDir, { recursive: true, force: true });
      if (distributed) await deleteStream(env.NATS_STREAM);
    },
  };
}

/** Registers a fresh user through the API and returns its bearer header. */
export async function registerUser(baseUrl) {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Banco',
      lastName: 'Pruebas',
      email: `bench-${randomBytes(4).toString('hex')}@example.com`,
      password: 'Contraseña-de-benchmark-1',
    }),
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}: ${await response.text()}`);
  const { token } = await response.json();
  return `Bearer ${token}`;
}

/** Loads `rows` synthetic contacts (bench/lib/csv.js) through POST /api/contacts/import; resolves with the seconds it took. */
export async function importContacts(baseUrl, authorization, rows) {
  const lines = [CSV_HEADER];
  for (let i = 1; i <= rows; i++) lines.push(csvRow(i));
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/contacts/import`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'text/csv' },
    body: lines.join(''),
  });
  const report = await response.json();
  if (response.status !== 200 || report.created !== rows) throw new Error(`import answered ${response.status}: ${JSON.stringify(report).slice(0, 300)}`);
  return (performance.now() - started) / 1000;
}
