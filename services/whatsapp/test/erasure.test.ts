import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createEvent, type EventEnvelope, type Platform } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { FakePhone } from './support/fake-socket.js';
import { linkedUser, until, whatsappApp } from './support/harness.js';

/** What the erasure reported, from the bus. */
function progressOf(platform: Platform): EventEnvelope[] {
  const seen: EventEnvelope[] = [];
  void platform.bus.subscribe(`probe-${randomUUID()}`, async (events) => {
    seen.push(...events.filter((e) => e.type === 'account.erasure.progressed'));
  });
  return seen;
}

async function deleteUser(platform: Platform, userId: string): Promise<string> {
  const deletionId = randomUUID();
  await platform.db.sql.begin((tx) => platform.outbox('auth').append(tx, [createEvent('user.deleted', userId, { deletionId })]));
  return deletionId;
}

async function rowsOf(platform: Platform, userId: string): Promise<number> {
  const tables = await platform.db.sql<{ tableName: string }[]>`
    select table_name from information_schema.columns where table_schema = 'whatsapp' and column_name = 'user_id'`;
  let total = 0;
  for (const { tableName } of tables) {
    const [row] = await platform.db.sql<{ n: string }[]>`select count(*) as n from ${platform.db.sql(`whatsapp.${tableName}`)} where user_id = ${userId}`;
    total += Number(row!.n);
  }
  return total;
}

t.test('deleting the account logs the socket out (the phone forgets the device) and erases every whatsapp row', async (t) => {
  const platform = await createTestPlatform(t);
  const h = await whatsappApp(t, platform);
  const owner = await linkedUser(h);
  const socket = owner.socket();
  const progress = progressOf(platform);
  t.ok((await rowsOf(platform, owner.userId)) > 0, 'the account holds rows');

  await deleteUser(platform, owner.userId);
  await until(() => progress.some((e) => (e.data as { status: string }).status === 'done'), 'whatsapp reported done');
  t.ok(socket.loggedOut, "Baileys' logout() was called");
  t.equal(h.sessions().local(owner.userId), undefined, 'no session left');
  t.equal(await rowsOf(platform, owner.userId), 0, 'no whatsapp row of the user');
  t.same((progress.find((e) => (e.data as { status: string }).status === 'done')!.data as { problems: string[] }).problems, []);
});

const SKIP = process.env.DATABASE_URL ? false : 'two replicas need PostgreSQL (the embedded database has one replica and no notifications)';

t.test('the replica that erases asks the one holding the socket to log out (the lease hand-over)', { skip: SKIP }, async (t) => {
  const platform = await createTestPlatform(t);
  const options = { exclusive: false, lease: { ttlMs: 120_000, tickMs: 60_000, connectWaitMs: 5_000 } };
  const a = await whatsappApp(t, platform, options);
  // Built second, B's erasure consumer is the one the in-process bus delivers to: it holds no socket.
  const b = await whatsappApp(t, platform, options, new FakePhone());
  const owner = await linkedUser(a);
  const socket = owner.socket();
  t.equal(b.sessions().local(owner.userId), undefined, 'B holds no socket');
  const progress = progressOf(platform);

  await deleteUser(platform, owner.userId);
  await until(() => progress.some((e) => (e.data as { status: string }).status === 'done'), 'whatsapp reported done');
  t.ok(socket.loggedOut, "A's socket logged out when B asked");
  await until(() => a.sessions().local(owner.userId) === undefined, 'A let the socket go');
  t.equal(await rowsOf(platform, owner.userId), 0, 'no whatsapp row of the user');
});
