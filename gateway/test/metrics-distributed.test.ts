import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { createTestDatabase, takeServerTurn } from '@asistente/kit/testing';
import { ROUTES } from '../src/routing-table.js';
import { isServed, metricNamesIn, monitoringQueries, servedTypes } from './monitoring/queries.js';

/**
 * Every process of the distributed topology serves /metrics on its own METRICS_PORT, and what they serve
 * together names every metric the Grafana dashboard and the alert rules query (issue 23, "Done when").
 */
const root = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
const GATEWAY = root('gateway/dist/main.js');
const MIGRATE = root('packages/kit/dist/migrate-cli.js');
const { DATABASE_URL = '', NATS_URL = '' } = process.env;
const SKIP = !DATABASE_URL || !NATS_URL ? 'set DATABASE_URL and NATS_URL to run the processes of the distributed topology' : false;
// A fleet of service processes on the shared server: never beside the one that needs it alone.
if (!SKIP) await takeServerTurn(t, 'beside-fleets', 300_000);

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  port: number;
  metricsPort: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startNode(name: string, script: string, env: Record<string, string>): Omit<Proc, 'port' | 'metricsPort'> {
  const child = spawn(process.execPath, [script], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { name, child, output };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function stop(proc: Pick<Proc, 'child'>): Promise<void> {
  proc.child.kill('SIGTERM');
  const killer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await exited(proc.child);
  clearTimeout(killer);
}

async function waitReady(proc: Proc, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && proc.child.exitCode === null) {
    if (await fetch(`http://127.0.0.1:${proc.port}/ready`).then((r) => r.ok, () => false)) return;
    await sleep(100);
  }
  throw new Error(`${proc.name} not ready on :${proc.port}\n${proc.output.slice(-30).join('\n')}`);
}

const scrape = async (proc: Proc) => {
  const response = await fetch(`http://127.0.0.1:${proc.metricsPort}/metrics`);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
};

t.test('/metrics of every process answers, and together they name every metric the dashboard and the alerts read', { skip: SKIP, timeout: 300_000 }, async (t) => {
  if (!existsSync(GATEWAY) || !existsSync(MIGRATE)) {
    t.fail('the build is missing (npm test builds first; or run npm run build)');
    return;
  }
  const database = await createTestDatabase(DATABASE_URL);
  const suffix = randomBytes(4).toString('hex');
  const stream = `METRICS_${suffix}`;
  const procs: Proc[] = [];
  t.teardown(async () => {
    await Promise.all(procs.map(stop));
    const nc = await connect({ servers: NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
    await nc.close();
    await database.drop();
  });
  const shared = {
    DATABASE_URL: database.url!,
    NATS_URL,
    NATS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: `metrics${suffix}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEYS: `metrics:${randomBytes(32).toString('base64')}`,
    MIGRATE_ON_START: 'false',
    SCRYPT_COST: '10',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  const migration = startNode('migrate', MIGRATE, shared);
  t.equal(await exited(migration.child), 0, 'migrations applied', { output: migration.output.join('\n') });

  const start = async (name: string, script: string, env: Record<string, string>): Promise<Proc> => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const proc = { ...startNode(name, script, { ...shared, ...env, PORT: String(port), METRICS_PORT: String(metricsPort) }), port, metricsPort };
    procs.push(proc);
    return proc;
  };
  const services = await Promise.all(ROUTES.map((route) => start(route.name, root(`services/${route.name}/dist/server.js`), {})));
  await Promise.all(services.map((proc) => waitReady(proc)));
  const urls = Object.fromEntries(ROUTES.map((route, i) => [route.urlVariable, `http://127.0.0.1:${services[i]!.port}`]));
  const gateway = await start('gateway', GATEWAY, urls);
  await waitReady(gateway);

  const api = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${gateway.port}/api${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined };
  };
  const email = `metricas-${suffix}@example.com`;
  const registered = await api('POST', '/auth/register', undefined, { firstName: 'Ana', lastName: 'Prueba', email, password: 'Contraseña-segura-1' });
  t.equal(registered.status, 201);
  const token = registered.body!.token as string;
  const created = await api('POST', '/contacts', token, { firstName: 'José', lastName: 'Pérez', email: `jose-${suffix}@acme.es` });
  t.equal(created.status, 201);
  const contactId = created.body!.id as string;
  t.equal((await api('GET', `/contacts/${contactId}`, token)).status, 200);
  t.equal((await fetch(`http://127.0.0.1:${gateway.port}/metrics`).then((r) => r.text())).includes('# TYPE'), false, "the gateway's public port never serves metrics");

  const all = [...services, gateway];
  const texts = new Map<string, string>();
  for (const proc of all) {
    const { status, type, text } = await scrape(proc);
    t.equal(status, 200, `${proc.name}: /metrics answers on its METRICS_PORT`);
    t.match(type, /^text\/plain; version=0\.0\.4/);
    t.match(text, new RegExp(`process="${proc.name}"`), `${proc.name}: its series name the process`);
    t.match(text, /^asistente_db_connections\{state="active",process="[a-z]+"\} \d+$/m, `${proc.name}: its database connections`);
    for (const secret of [contactId, email, token]) t.notMatch(text, secret, `${proc.name}: no id, address or token in a label`);
    texts.set(proc.name, text);
  }
  t.match(texts.get('contacts'), /^asistente_http_requests_total\{route="\/contacts\/:id",method="GET",status="200",process="contacts"\} 1$/m, 'the service labels the read by its pattern');
  t.match(texts.get('gateway'), /^asistente_http_requests_total\{route="\/api\/contacts\/\*",method="GET",status="200",process="gateway"\} \d+$/m, 'the gateway labels proxied requests by the prefix pattern');
  /*
   * A gauge read at scrape time answers NaN when its read failed (it says "unknown" rather than a healthy 0),
   * and the consumers report their backlog once NATS knows them: on a busy machine the first scrape can
   * come before either. Each is scraped again until it holds a number; the process's log says why if never.
   */
  const settled = async (name: string, pattern: RegExp) => {
    const proc = all.find((p) => p.name === name)!;
    const deadline = Date.now() + 30_000;
    let text = texts.get(name)!;
    while (!pattern.test(text) && Date.now() < deadline) {
      await sleep(250);
      text = (await scrape(proc)).text;
    }
    texts.set(name, text);
    return { text, output: proc.output.slice(-30).join('\n') };
  };
  const outbox = await settled('contacts', /^asistente_outbox_waiting\{schema="contacts",process="contacts"\} \d+$/m);
  t.match(outbox.text, /^asistente_outbox_waiting\{schema="contacts",process="contacts"\} \d+$/m, 'the outbox of the service', { output: outbox.output });
  const webhooks = await settled('webhooks', /^asistente_webhook_deliveries_due\{process="webhooks"\} \d+$/m);
  t.match(webhooks.text, /^asistente_webhook_deliveries_due\{process="webhooks"\} \d+$/m, 'the webhooks service reports its backlog', { output: webhooks.output });
  t.match(webhooks.text, /^# TYPE asistente_webhook_deliveries_total counter$/m, 'and names its attempts by outcome');
  const analytics = await settled('analytics', /^asistente_consumer_pending\{durable="analytics",process="analytics"\} \d+$/m);
  t.match(analytics.text, /^asistente_consumer_pending\{durable="analytics",process="analytics"\} \d+$/m, 'the analytics consumer reports its backlog', { output: analytics.output });

  const types = new Map<string, string>();
  for (const text of texts.values()) for (const [name, type] of servedTypes(text)) types.set(name, type);
  const queries = monitoringQueries();
  t.ok(queries.length > 30, `${queries.length} queries in the dashboard and the alerts`);
  for (const { where, expr } of queries) {
    const names = metricNamesIn(expr);
    t.ok(names.length > 0, `${where} reads a metric`);
    for (const name of names) t.ok(isServed(name, types), `${where}: ${name} is served`);
  }
});
