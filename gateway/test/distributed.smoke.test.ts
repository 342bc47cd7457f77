import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { createTestDatabase, takeServerTurn } from '@asistente/kit/testing';
import { ROUTES } from '../src/routing-table.js';

const root = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
const GATEWAY = root('gateway/dist/main.js');
const MIGRATE = root('packages/kit/dist/migrate-cli.js');
const { DATABASE_URL = '', NATS_URL = '' } = process.env;
const SKIP = !DATABASE_URL || !NATS_URL ? 'set DATABASE_URL and NATS_URL to run the gateway and the services as separate processes' : false;
// A fleet of service processes on the shared server: never beside the one that needs it alone.
if (!SKIP) await takeServerTurn(t, 'beside-fleets', 300_000);

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `node <script>` with only the given environment: nothing leaks in from the test runner. */
function startNode(name: string, script: string, env: Record<string, string>): Proc {
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

async function stop(proc: Proc): Promise<void> {
  proc.child.kill('SIGTERM');
  const killer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await exited(proc.child);
  clearTimeout(killer);
}

// A bound for a process that never gets ready, not a wait: a loaded machine takes a while to start three processes at once.
async function waitReady(proc: Proc, port: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) break;
    const ok = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${proc.name} not ready on :${port}\n${proc.output.slice(-30).join('\n')}`);
}

async function streamMessages(jsm: JetStreamManager, stream: string): Promise<{ subject: string; event: { id: string; data: { contactId?: string } } }[]> {
  const { state } = await jsm.streams.info(stream);
  const messages = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const message = await jsm.streams.getMessage(stream, { seq });
    if (message) messages.push({ subject: message.subject, event: message.json<{ id: string; data: { contactId?: string } }>() });
  }
  return messages;
}

t.test('gateway and services as separate processes on Postgres and JetStream', { skip: SKIP }, async (t) => {
  if (!existsSync(GATEWAY) || !existsSync(MIGRATE)) {
    t.fail('the build is missing (npm test builds first; or run npm run build)');
    return;
  }
  const database = await createTestDatabase(DATABASE_URL);
  const suffix = randomBytes(4).toString('hex');
  const stream = `SMOKE_${suffix}`;
  const prefix = `smoke${suffix}`;
  const nc = await connect({ servers: NATS_URL });
  const jsm = await jetstreamManager(nc);
  const procs: Proc[] = [];
  t.teardown(async () => {
    await Promise.all(procs.map(stop));
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
    await database.drop();
  });

  const shared = {
    DATABASE_URL: database.url!,
    NATS_URL,
    NATS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: prefix,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEYS: `smoke:${randomBytes(32).toString('base64')}`,
    MIGRATE_ON_START: 'false',
    SCRYPT_COST: '10',
    LOG_LEVEL: 'warn',
  };
  const migration = startNode('migrate', MIGRATE, shared);
  t.equal(await exited(migration.child), 0, 'npm run migrate applies the migrations', { output: migration.output.join('\n') });

  const urls: Record<string, string> = {};
  const services = await Promise.all(
    ROUTES.map(async (route) => {
      const port = await freePort();
      urls[route.urlVariable] = `http://127.0.0.1:${port}`;
      const proc = startNode(route.name, root(`services/${route.name}/dist/server.js`), { ...shared, PORT: String(port) });
      procs.push(proc);
      return { proc, port };
    }),
  );
  await Promise.all(services.map(({ proc, port }) => waitReady(proc, port)));
  const gatewayPort = await freePort();
  const gateway = startNode('gateway', GATEWAY, { ...shared, ...urls, PORT: String(gatewayPort) });
  procs.push(gateway);
  await waitReady(gateway, gatewayPort);

  const api = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${gatewayPort}/api${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const register = async (firstName: string) => {
    const res = await api('POST', '/auth/register', undefined, {
      firstName,
      lastName: 'Prueba',
      email: `${firstName.toLowerCase()}-${suffix}@example.com`,
      password: 'Contraseña-segura-1',
    });
    t.equal(res.status, 201, `${firstName} registers through the gateway`);
    return res.body.token as string;
  };

  const ana = await register('Ana');
  t.equal((await api('GET', '/contacts')).status, 401, 'the gateway refuses a request without a token');

  const ids: Record<string, string> = {};
  for (const [firstName, lastName] of [['José', 'Pérez'], ['María', 'Núñez'], ['Ángel', 'Gómez']] as const) {
    const res = await api('POST', '/contacts', ana, { firstName, lastName, email: `${lastName.toLowerCase()}@acme.es` });
    t.equal(res.status, 201, `creates ${firstName} ${lastName}`);
    ids[firstName] = res.body.id;
  }
  const list = await api('GET', '/contacts?page=1&limit=10', ana);
  t.equal(list.body.total, 3, 'lists the three contacts');
  t.equal(list.body.contacts.length, 3, 'on one page');

  for (const [term, expected] of [['perez', 'José'], ['NUNEZ', 'María'], ['ángel', 'Ángel'], ['GOMEZ', 'Ángel']] as const) {
    const found = await api('GET', `/contacts?search=${encodeURIComponent(term)}`, ana);
    t.same(found.body.contacts.map((c: { firstName: string }) => c.firstName), [expected], `search "${term}" ignores case and accents`);
  }

  t.equal((await api('DELETE', `/contacts/${ids['María']}`, ana)).status, 204, 'deletes María');
  t.equal((await api('GET', `/contacts/${ids['María']}`, ana)).status, 404, 'a deleted contact is gone');
  t.equal((await api('GET', '/contacts', ana)).body.total, 2, 'two contacts left');

  const beto = await register('Beto');
  const joseUrl = `/contacts/${ids['José']}`;
  t.equal((await api('GET', joseUrl, beto)).status, 404, "another user's contact answers 404");
  t.equal((await api('PUT', joseUrl, beto, { firstName: 'Robado', lastName: 'X' })).status, 404, 'and cannot be updated');
  t.equal((await api('DELETE', joseUrl, beto)).status, 404, 'nor deleted');
  t.equal((await api('GET', '/contacts', beto)).body.total, 0, 'Beto sees none of Ana\'s contacts');
  t.equal((await api('POST', '/auth/logout', beto)).status, 204, 'Beto logs out');
  t.equal((await api('GET', '/contacts', beto)).status, 401, 'the revoked token is refused');

  // Beto's logout is a line of his security log, which travels as an event like any other.
  const expected = { 'auth.user.registered': 2, 'contacts.contact.created': 3, 'contacts.contact.deleted': 1, 'security.activity.recorded': 1 };
  const total = Object.values(expected).reduce((a, b) => a + b, 0);
  const deadline = Date.now() + 15_000;
  while ((await jsm.streams.info(stream).then((i) => i.state.messages, () => 0)) < total && Date.now() < deadline) await sleep(100);
  await sleep(500); // a duplicate would arrive right behind the originals
  const messages = await streamMessages(jsm, stream);
  const counts: Record<string, number> = {};
  for (const { subject } of messages) {
    const type = subject.slice(prefix.length + 1);
    counts[type] = (counts[type] ?? 0) + 1;
  }
  t.same(counts, expected, 'every event reached the JetStream stream exactly once');
  t.equal(new Set(messages.map((m) => m.event.id)).size, messages.length, 'no event id appears twice');
  const created = messages.filter((m) => m.subject.endsWith('.contacts.contact.created')).map((m) => m.event.data.contactId);
  t.same(created.sort(), Object.values(ids).sort(), 'one created event per contact');
});
