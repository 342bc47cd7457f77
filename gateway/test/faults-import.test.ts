import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import postgres from 'postgres';
import t from 'tap';
import { generateKey } from '@asistente/kit';
import { createTestDatabase } from '@asistente/kit/testing';
import { DATABASE_URL, NATS_URL, freePort, kill, migrateDatabase, startNode, userWithToken, waitFor, waitReady } from './faults/support.js';

/**
 * The contacts service SIGKILLed during a 100,000-row import: what it leaves
 * is whole batches, each with its event (so analytics would count exactly
 * what was written), and importing the same file again converges to the
 * 100,000 contacts, each announced once.
 */
const SKIP = !DATABASE_URL || !NATS_URL ? 'DATABASE_URL and NATS_URL are not set: runs the contacts service as a process on PostgreSQL (CI second pass)' : false;
const ROWS = 100_000;
const BATCH = 5_000; // IMPORT_BATCH_ROWS.postgres

t.test('contacts killed during a 100k-row import: whole batches only, and a re-run converges', { skip: SKIP }, async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  await migrateDatabase(t, database.url!);
  const suffix = randomBytes(4).toString('hex');
  const stream = `IMPORT_${suffix}`;
  const secret = randomBytes(32).toString('hex');
  const env = {
    DATABASE_URL: database.url!,
    NATS_URL,
    NATS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: `imp${suffix}`,
    JWT_SECRET: secret,
    SECRETS_KEYS: `k1:${generateKey()}`,
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  const nc = await connect({ servers: NATS_URL });
  t.teardown(async () => {
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
    await nc.close();
  });
  const { userId, authorization } = await userWithToken(database.url!, secret);
  const sql = postgres(database.url!, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  const rows = async () => Number((await sql<{ n: string }[]>`select count(*) as n from contacts.contacts where user_id = ${userId}`)[0]!.n);
  const announced = async () => {
    const [sum] = await sql<{ created: string; events: string }[]>`
      select coalesce(sum((data->>'created')::int), 0) as created, count(*) as events
      from contacts.outbox where user_id = ${userId} and type = 'contacts.contact.imported'`;
    return { created: Number(sum!.created), events: Number(sum!.events) };
  };

  const lines = ['nombre,apellido,correo,empresa'];
  for (let i = 0; i < ROWS; i++) lines.push(`Nombre${i},Apellido${i},persona${i}@ejemplo.es,Empresa ${i % 97}`);
  const csv = Buffer.from(`${lines.join('\n')}\n`);
  const startContacts = async () => {
    const port = await freePort();
    const proc = startNode(t, 'contacts', 'services/contacts/dist/server.js', { ...env, PORT: String(port) });
    await waitReady(proc, port);
    return { proc, url: `http://127.0.0.1:${port}` };
  };
  const importFile = (url: string) =>
    fetch(`${url}/contacts/import`, { method: 'POST', headers: { authorization, 'content-type': 'text/csv' }, body: csv });

  const first = await startContacts();
  const interrupted = importFile(first.url).then(
    (res) => `answered ${res.status}`,
    (error: Error) => `cut: ${error.message}`,
  );
  await waitFor('the first batches merged', async () => (await rows()) >= BATCH, 120_000);
  await kill(first.proc);
  t.match(await interrupted, /^cut/, 'the import was cut by the SIGKILL');
  const left = await rows();
  t.ok(left > 0 && left < ROWS, `killed midway: ${left} of ${ROWS} rows`);
  t.equal(left % BATCH, 0, 'only whole batches were written (each batch is one transaction)');
  t.same(await announced(), { created: left, events: left / BATCH }, 'each written batch has its event: analytics counts what was written, no more');

  const second = await startContacts();
  const rerun = await importFile(second.url);
  t.equal(rerun.status, 200, 'the same file imported again');
  t.match(await rerun.json(), { created: ROWS - left, updated: 0, skipped: left, errors: [] }, 'the re-run completes the import and skips what was there');
  t.equal(await rows(), ROWS, `${ROWS} contacts, converged`);
  const [duplicates] = await sql<{ n: string }[]>`select count(*) - count(distinct lower(email)) as n from contacts.contacts where user_id = ${userId}`;
  t.equal(Number(duplicates!.n), 0, 'no contact twice');
  t.equal((await announced()).created, ROWS, 'the events announce each contact created exactly once');
  t.comment(`import fault figures: killed at ${left} of ${ROWS} rows; re-run created ${ROWS - left}, skipped ${left}`);
});
