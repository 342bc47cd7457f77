import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import postgres from 'postgres';
import t from 'tap';
import contactsService from '@asistente/contacts';
import { authPlugin, createHttpApp, generateKey, healthRoutes } from '@asistente/kit';
import { createTestDatabase, createTestPlatform, signToken } from '@asistente/kit/testing';
import { alive, CuttablePath, DATABASE_URL, NATS_URL, freePort, migrateDatabase, startNode, userWithToken, waitFor, waitReady } from './faults/support.js';

/**
 * PostgreSQL connections cut under a running service: connections killed by
 * pg_terminate_backend, then the database unreachable for a while (a TCP
 * path the test cuts). Requests answer 503 with a Spanish message, never
 * 500; /ready says the database is down; and the same process serves again
 * once the database is back, with no restart.
 */
const SKIP = DATABASE_URL ? false : 'DATABASE_URL is not set: cuts connections of a real PostgreSQL (CI second pass)';
const UNAVAILABLE = { statusCode: 503, code: 'DATABASE_UNAVAILABLE', error: 'Service Unavailable', message: /no está disponible/ };

t.test('PostgreSQL connections cut: 503 in Spanish meanwhile, /ready false, recovery without a restart', { skip: SKIP }, async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const path = await CuttablePath.open(t, new URL(database.url!));
  const platform = await createTestPlatform(t, { config: { DATABASE_URL: path.through(database.url!) } });
  const app = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES, streams: platform.streams });
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  await app.register(healthRoutes, { sql: platform.db.sql, bus: platform.bus, name: 'contacts' });
  await app.register(contactsService, { prefix: '/api', platform });
  await app.ready();
  t.teardown(() => app.close());
  const { authorization } = signToken(app);
  const admin = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  t.teardown(() => admin.end());
  const databaseName = new URL(database.url!).pathname.slice(1);
  /** Terminates every backend of the service's database; resolves once they are all gone. */
  const terminate = async () => {
    // The pids first, then the calls: in one WHERE the planner may call pg_terminate_backend before filtering.
    const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`;
    const pids = rows.map((r) => r.pid);
    await admin`select pg_terminate_backend(pid) from unnest(${pids}::int[]) as pid`;
    await waitFor('the terminated backends gone', async () => {
      const [left] = await admin<{ n: string }[]>`select count(*) as n from pg_stat_activity where pid = any(${pids}::int[])`;
      return Number(left!.n) === 0;
    });
    return pids.length;
  };
  let n = 0;
  const create = () =>
    app.inject({ method: 'POST', url: '/api/contacts', headers: { authorization }, payload: { firstName: `Ana${n}`, lastName: 'Corte', email: `corte${n++}@ejemplo.es` } });
  const list = () => app.inject({ url: '/api/contacts', headers: { authorization } });

  t.equal((await create()).statusCode, 201, 'serves before the cut');
  t.equal((await app.inject({ url: '/ready' })).statusCode, 200, 'ready before the cut');

  // 1. Every connection of the pool killed between requests: the next ones reconnect (or answer a Spanish 503).
  const statuses = new Map<number, number>();
  let killed = 0;
  for (let round = 0; round < 3; round++) {
    killed += await terminate();
    for (let i = 0; i < 5; i++) {
      const res = await create();
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode !== 201) t.match(res.json(), UNAVAILABLE, 'a cut request answers 503 in Spanish');
    }
  }
  t.ok(killed > 0, `${killed} backends terminated`);
  await terminate();
  const readyAfterCut = await app.inject({ url: '/ready' });
  t.equal(readyAfterCut.statusCode, 200, `ready at once after a cut: a dead pooled connection is replaced, not taken for a database down (${readyAfterCut.body})`);
  t.same([...statuses.keys()].filter((s) => s !== 201 && s !== 503), [], `only 201 and 503 answered: ${JSON.stringify(Object.fromEntries(statuses))}`);
  await waitFor('writes succeeding after the cuts', async () => (await create()).statusCode === 201);

  // 2. The database unreachable: new connections refused, the open ones terminated.
  path.refuse();
  await terminate();
  await waitFor('/ready saying the database is down', async () => {
    const ready = await app.inject({ url: '/ready' });
    return ready.statusCode === 503 && ready.json<{ checks: { database: string } }>().checks.database === 'down';
  });
  const read = await list();
  t.equal(read.statusCode, 503, 'a read answers 503 while the database is unreachable');
  t.match(read.json(), UNAVAILABLE, 'in Spanish, in the house shape');
  const write = await create();
  t.equal(write.statusCode, 503, 'a write too');
  t.match(write.json(), UNAVAILABLE);

  // 3. Back: the same process serves again.
  path.restore();
  await waitFor('/ready again', async () => (await app.inject({ url: '/ready' })).statusCode === 200);
  t.equal((await list()).statusCode, 200, 'reads again without a restart');
  t.equal((await create()).statusCode, 201, 'writes again without a restart');
});

/**
 * The same cut under load, with the service as its own process. postgres.js 3.4.9 (the latest release)
 * threw an uncaught TypeError when a backend died inside a transaction (it wrote ROLLBACK to the closed
 * connection: porsager/postgres#1154, #1208); patches/postgres+3.4.9.patch fails that query instead.
 */
const NEEDS_BOTH = !DATABASE_URL || !NATS_URL ? 'DATABASE_URL and NATS_URL are not set: runs the contacts service as a process (CI second pass)' : false;
t.test(
  'connections terminated under load: the service process survives and keeps serving',
  { skip: NEEDS_BOTH },
  async (t) => {
    const database = await createTestDatabase();
    t.teardown(() => database.drop());
    await migrateDatabase(t, database.url!);
    const secret = randomBytes(32).toString('hex');
    const suffix = randomBytes(4).toString('hex');
    const port = await freePort();
    const contacts = startNode(t, 'contacts', 'services/contacts/dist/server.js', {
      DATABASE_URL: database.url!,
      NATS_URL,
      NATS_STREAM: `CUT_${suffix}`,
      EVENTS_SUBJECT_PREFIX: `cut${suffix}`,
      JWT_SECRET: secret,
      SECRETS_KEYS: `k1:${generateKey()}`,
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
    });
    t.teardown(async () => {
      const nc = await connect({ servers: NATS_URL });
      await (await jetstreamManager(nc)).streams.delete(`CUT_${suffix}`).catch(() => undefined);
      await nc.close();
    });
    await waitReady(contacts, port);
    const { authorization } = await userWithToken(database.url!, secret);
    const admin = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
    t.teardown(() => admin.end());
    const databaseName = new URL(database.url!).pathname.slice(1);
    const statuses: number[] = [];
    let writing = true;
    let n = 0;
    const writers = [0, 1, 2, 3].map(async () => {
      while (writing && alive(contacts)) {
        const res = await fetch(`http://127.0.0.1:${port}/contacts`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ firstName: `Ana${n}`, lastName: 'Carga', email: `carga${n++}@ejemplo.es` }),
        }).then((r) => r.status, () => 0);
        statuses.push(res);
      }
    });
    await waitFor('writes under way', () => statuses.filter((s) => s === 201).length >= 20);
    const pids = (await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`).map((r) => r.pid);
    await admin`select pg_terminate_backend(pid) from unnest(${pids}::int[]) as pid`;
    const after = statuses.length;
    await waitFor('writes going on after the cut, or the process gone', () => !alive(contacts) || statuses.slice(after).filter((s) => s === 201).length >= 20);
    writing = false;
    await Promise.all(writers);
    if (!alive(contacts)) {
      const crash = contacts.output.find((line) => /TypeError/.test(line)) ?? contacts.output.at(-1);
      t.fail(`the process died: ${crash}`);
      return;
    }
    t.pass('the process survived the cut');
    t.same([...new Set(statuses)].filter((s) => s !== 201 && s !== 503), [], 'only 201 and Spanish 503 answered');
  },
);
