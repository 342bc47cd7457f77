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

t.test('an erasure that dies half-way is delivered again and finishes; nothing of it is left half-done', async (t) => {
  const platform = await createTestPlatform(t, { nats });
  const { sql } = platform.db;
  const [gone, deletionId] = [randomUUID(), randomUUID()];
  await sql`insert into contacts.contacts (user_id, first_name, last_name) values (${gone}, 'Ana', 'Gil'), (${gone}, 'Eva', 'Sanz')`;
  const statuses: string[] = [];
  await platform.bus.subscribe('progress-probe', async (events) => {
    for (const e of events) if (e.type === 'account.erasure.progressed') statuses.push((e.data as { status: string }).status);
  });
  let attempts = 0;
  await registerUserErasure(platform, {
    service: 'contacts',
    erase: async (tx, userId) => {
      attempts++;
      await tx`delete from contacts.contacts where user_id = ${userId}`;
      // The process "dies" after deleting, before the commit and the ack.
      if (attempts === 1) throw new Error('killed');
    },
  });
  await sql.begin((tx) => platform.outbox('auth').append(tx, [createEvent('user.deleted', gone, { deletionId })]));
  await waitFor(() => statuses.includes('done'));
  t.equal(attempts, 2, 'delivered again after the failure');
  const [left] = await sql<{ n: string }[]>`select count(*) as n from contacts.contacts where user_id = ${gone}`;
  t.equal(Number(left!.n), 0, 'erased by the second delivery');
  t.equal(statuses.filter((s) => s === 'done').length, 1, 'the failed attempt reported no done (its transaction was rolled back)');
});

async function waitFor(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}
