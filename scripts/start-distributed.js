// `npm run start:distributed`: the distributed topology on one machine. Migrates
// once, starts every service of the gateway's routing table as its own process
// (REPLICAS=N of each, REPLICAS_<SERVICE>=N for one), then the gateway in front
// of them, all sharing one JWT secret and key ring.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { alive, exited, startNode, stopAll } from './lib/processes.js';
import postgres from 'postgres';
import { availableConnections, poolForBudget } from './lib/connection-budget.js';
import { metricsPortBase, replicaPlan } from './lib/replicas.js';
import { supervise } from './lib/supervise.js';

const root = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));
const GATEWAY = root('gateway/dist/main.js');
const MIGRATE = root('packages/kit/dist/migrate-cli.js');

function fail(message) {
  console.error(`start-distributed: ${message}`);
  process.exit(1);
}

for (const variable of ['DATABASE_URL', 'NATS_URL']) {
  if (!process.env[variable]) {
    fail(`${variable} is required (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres NATS_URL=nats://127.0.0.1:4222); npm start runs everything in one process without them`);
  }
}
if (!existsSync(GATEWAY) || !existsSync(MIGRATE)) fail('the build is missing: run npm run build first');

const { ROUTES } = await import(root('gateway/dist/routing-table.js'));
const { resolveJwtSecret } = await import(root('packages/kit/dist/auth/jwt-secret.js'));
const { loadOrCreateEmbeddedKeyring } = await import(root('packages/kit/dist/secrets/keyring.js'));
const { HARD_DEADLINE_MS, SAME_STOP_MS } = await import(root('packages/kit/dist/shutdown.js'));
const { watchParent } = await import(root('packages/kit/dist/parent-watch.js'));
/** Every child drains within its own deadline; whatever is still running a second later is killed. */
const STOP_GRACE_MS = HARD_DEADLINE_MS + 1_000;

/** @type {ReturnType<typeof replicaPlan>} */
let plan = [];
/** @type {number | undefined} */
let metricsBase;
try {
  plan = replicaPlan(ROUTES, process.env);
  metricsBase = metricsPortBase(process.env);
} catch (error) {
  fail(error.message);
}

const dataDir = process.env.DATA_DIR || './data';
const quiet = { info() {}, warn() {} };

/** The key ring embedded mode keeps in the data directory, created on first use. */
async function localKeyring() {
  await loadOrCreateEmbeddedKeyring(dataDir, quiet);
  return (await readFile(path.join(dataDir, 'secrets.keys'), 'utf8')).trim();
}

// Resolved here, once, and handed to every process: each generating its own would
// sign tokens and seal secrets the others cannot verify or open.
const JWT_SECRET = await resolveJwtSecret(process.env.JWT_SECRET, dataDir, quiet);
const SECRETS_KEYS = process.env.SECRETS_KEYS || (await localKeyring());
// METRICS_PORT is per process (see metricsPortBase): one inherited by all would collide on the second.
const { METRICS_PORT: _oneForAll, ...environment } = process.env;
const shared = { ...environment, JWT_SECRET, SECRETS_KEYS, MIGRATE_ON_START: 'false' };
/** @param {number | undefined} port */
const metricsEnv = (port) => (port === undefined ? {} : { METRICS_PORT: String(port) });

/** @type {ReturnType<typeof supervise>[]} */
const supervised = [];
/**
 * The migration, while it runs: a child too.
 * @type {import('node:child_process').ChildProcess | undefined}
 */
let migration;
let stopping = false;
let stoppedAt = 0;
const children = () => [...(migration ? [migration] : []), ...supervised.map((s) => s.child)];

/**
 * The first signal: no more restarts, SIGTERM to every child (the restarted ones are the supervisors'
 * current children), and SIGKILL to any still running after STOP_GRACE_MS.
 */
async function shutdown(code) {
  stopping = true;
  stoppedAt = Date.now();
  supervised.forEach((s) => s.stop());
  await stopAll(children(), 'SIGTERM', STOP_GRACE_MS);
  process.exit(code);
}

/** A child that dies on its own is restarted with backoff; the others keep serving. */
function start(name, script, env) {
  if (stopping) throw new Error('stopping');
  const proc = supervise(name, script, env);
  supervised.push(proc);
  return proc;
}

/**
 * Polls `url` until it answers 2xx (a child restarted meanwhile is fine); rejects after `timeoutMs`, which
 * only bounds a stuck process: on two busy cores ten processes booting at once take well over a minute.
 */
async function waitUp(url, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs / 1000} s`);
}

// `on`, not `once`: with no listener left, a repeated signal would end the launcher on the spot, its
// children still running. A repeat within SAME_STOP_MS is the same stop (npm passes a terminal's Ctrl+C on
// too); a later one, a second Ctrl+C, kills every child at once.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!stopping) {
      console.error(`start-distributed: ${signal}: stopping every process (again to kill them at once)`);
      void shutdown(0);
    } else if (Date.now() - stoppedAt >= SAME_STOP_MS) {
      console.error(`start-distributed: ${signal} again: killing every process`);
      process.exit(1);
    }
  });
}
// Its own parent gone (npm killed, or the test or benchmark that spawned it crashed): the stack stops rather
// than living on under init with its ports and database connections, as `npm start`'s process does.
watchParent(() => {
  if (stopping) return;
  console.error('start-distributed: the process that started it has gone: stopping every process');
  void shutdown(0);
});
// However the launcher ends (but SIGKILL, which the children learn of through their IPC channel).
process.once('exit', () => children().forEach((child) => alive(child) && child.kill('SIGKILL')));

migration = startNode('migrate', MIGRATE, process.env);
if ((await exited(migration)) !== 0 && !stopping) fail('migrations failed');
migration = undefined;

// Every replica and the gateway, each with its pool: together they must fit the server's connections.
const processes = plan.reduce((sum, { replicas }) => sum + replicas.length, 1);
const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
const budget = poolForBudget({ processes, ...(await availableConnections(admin).finally(() => admin.end())), poolMax: process.env.DB_POOL_MAX });
if ('error' in budget) fail(budget.error);
shared.DB_POOL_MAX = String(budget.pool);
if (budget.lowered) console.log(`start-distributed: DB_POOL_MAX ${budget.pool} per process, so ${processes} processes fit the server's max_connections (raise it for the default of 10)`);

// Services call each other too (the assistant's tools, contact sync), so every process gets every URL;
// several replicas of a service are one comma-separated list, which the gateway and the kit spread over.
const urls = Object.fromEntries(ROUTES.map((r, i) => [r.urlVariable, plan[i].replicas.map((replica) => replica.url).join(',')]));
const replicas = plan.flatMap(({ name, replicas }) => replicas.map((replica) => ({ ...replica, name })));

try {
  for (const replica of replicas) {
    start(replica.label, root(`services/${replica.name}/dist/server.js`), { ...shared, ...urls, PORT: String(replica.port), ...metricsEnv(replica.metricsPort) });
  }
  await Promise.all(replicas.map((replica) => waitUp(`${replica.url}/ready`)));

  const port = process.env.PORT || '3000';
  start('gateway', GATEWAY, { ...shared, ...urls, PORT: port, ...metricsEnv(metricsBase) });
  await waitUp(`http://127.0.0.1:${port}/ready`);
  const where = plan.map(({ name, replicas }) => `${name} ${replicas.map((replica) => `:${replica.port}`).join(' ')}`).join(', ');
  console.log(`start-distributed: Mi Asistente.IA ready on http://127.0.0.1:${port} (${where})`);
} catch (error) {
  if (!stopping) {
    console.error(`start-distributed: ${error.message}`);
    await shutdown(1);
  }
}
