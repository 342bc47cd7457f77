import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createEvent, registerUserErasure, type EventEnvelope } from '../src/index.js';
import { createTestPlatform } from '../src/testing/index.js';

const nats = Boolean(process.env.NATS_URL && process.env.DATABASE_URL);

t.test('user.deleted: every user_id table of the schema is swept, the other user stays, progress is reported', async (t) => {
  const platform = await createTestPlatform(t, { nats });
  const { sql } = platform.db;
  const [gone, kept, deletionId] = [randomUUID(), randomUUID(), randomUUID()];
  // contacts.trash references contacts.contacts? Whatever the order, the sweep retries what a reference blocks.
  await sql`insert into contacts.contacts (user_id, first_name, last_name, email) values (${gone}, 'Ana', 'Gil', 'ana@example.com'), (${kept}, 'Luis', 'Paz', null)`;
  await sql`insert into contacts.saved_views (user_id, name) values (${gone}, 'Mía'), (${kept}, 'Suya')`;
  const progress: EventEnvelope[] = [];
  await platform.bus.subscribe('progress-probe', async (events) => {
    progress.push(...events.filter((e) => e.type === 'account.erasure.progressed'));
  });
  let disconnects = 0;
  const consumer = await registerUserErasure(platform, {
    service: 'contacts',
    disconnect: async () => {
      disconnects++;
      if (disconnects === 1) throw new Error('provider down');
      return [];
    },
  });
  const deleted = createEvent('user.deleted', gone, { deletionId });
  await sql.begin((tx) => platform.outbox('auth').append(tx, [deleted]));
  await waitFor(() => progress.some((e) => (e.data as { status: string }).status === 'done'));
  const count = async (table: string, userId: string) =>
    Number((await sql<{ n: string }[]>`select count(*) as n from ${sql(table)} where user_id = ${userId}`)[0]!.n);
  t.equal(await count('contacts.contacts', gone), 0, 'the deleted user has no contacts');
  t.equal(await count('contacts.owner_counts', gone), 0, 'nor a count row');
  t.equal(await count('contacts.contacts', kept), 1, 'the other user keeps theirs');
  const done = progress.find((e) => (e.data as { status: string }).status === 'done')!;
  t.equal(done.userId, deletionId, 'reports carry the deletion id, not the user id');
  t.match(done.data, { deletionId, service: 'contacts', problems: [/proveedor/] }, 'a provider that failed is reported, not blocking');
  // Twice is harmless: a redelivery (a crash before the ack) erases nothing more and reports done again.
  t.equal(await consumer.eraseUser(gone, deletionId), 0);
  t.equal(await count('contacts.contacts', kept), 1);
  await waitFor(async () => (await count('auth.outbox', gone)) === 0);
  t.pass('the delivered user.deleted row is dropped from the outbox');
});

async function waitFor(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}
