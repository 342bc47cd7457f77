import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createEvent, createLogger, eraseOlderData, PeriodicJob, type RetentionReport } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import whatsappService from '../src/app.js';
import { WHATSAPP_RETENTION_STEPS } from '../src/domain/retention.repository.js';
import { until } from './support/harness.js';

const platform = await createTestPlatform(t, { nats: true });
const app = await buildServiceApp(t, whatsappService, platform);
const sql = platform.db.sql;
const log = createLogger('silent', 'test');
const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2030-06-30T02:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

/** What auth writes when the owner saves "Conservación de datos", delivered through the outbox and the bus. */
async function announce(userId: string, whatsappDays: number | null, at = new Date()) {
  const event = createEvent('account.retention.changed', userId, { whatsappDays, emailBodyDays: null, aiRunDays: null }, at);
  await sql.begin((tx) => platform.outbox('auth').append(tx, [event]));
}
const copyOf = async (userId: string) => (await sql<{ days: number | null }[]>`select days from whatsapp.retention where user_id = ${userId}`)[0];

/** A chat with `old` messages 40 days old and `recent` of 10 days, its summary pointing at the newest. */
async function chatWith(userId: string, old: number, recent: number, newest = recent > 0 ? daysAgo(10) : daysAgo(40)) {
  const [chat] = await sql<{ id: string }[]>`
    insert into whatsapp.chats (user_id, jid, name, last_at, last_text, last_direction)
    values (${userId}, ${`${randomUUID()}@s.whatsapp.net`}, 'Ana', ${newest}, 'último mensaje', 'incoming') returning id`;
  const rows = [...Array(old).fill(daysAgo(40)), ...Array(recent).fill(daysAgo(10))] as Date[];
  for (const [i, sentAt] of rows.entries()) {
    await sql`
      insert into whatsapp.messages (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, sent_at, status)
      values (${userId}, ${chat!.id}, ${`W${i}-${randomUUID()}`}, 'incoming', 'phone', 'a@s.whatsapp.net', 'b@s.whatsapp.net', ${`mensaje ${i}`}, ${sentAt}, 'received')`;
  }
  return chat!.id;
}
const count = async (userId: string) => Number((await sql<{ n: string }[]>`select count(*) as n from whatsapp.messages where user_id = ${userId}`)[0]!.n);
const newer = async (userId: string) =>
  Number((await sql<{ n: string }[]>`select count(*) as n from whatsapp.messages where user_id = ${userId} and sent_at >= ${daysAgo(30)}`)[0]!.n);

/** The job as the app mounts it, on the test's clock, batches of 5 and a name of its own (the app's runs on the real clock). */
function job(reports: RetentionReport[], name = `test.whatsapp.retention.${randomUUID()}`) {
  return new PeriodicJob(sql, { name, log, now: () => NOW }, async (run) => {
    reports.push(await eraseOlderData(sql, 'whatsapp.retention', run, WHATSAPP_RETENTION_STEPS, 5));
  });
}

t.test("the owner's setting arrives as an event; the newest wins whatever the delivery order", async (t) => {
  const owner = randomUUID();
  await announce(owner, 90, new Date('2030-01-02T00:00:00Z'));
  await until(async () => (await copyOf(owner))?.days === 90, 'the copy of 90 days');
  await announce(owner, 30, new Date('2030-01-01T00:00:00Z'));
  await announce(owner, null, new Date('2030-01-03T00:00:00Z'));
  await until(async () => (await copyOf(owner))?.days === null, 'forever, the newest');
  t.equal((await copyOf(owner))!.days, null, 'the older 30 days, delivered late, changed nothing');
});

t.test('the job erases only older messages of owners who chose days, in batches; others, newer rows and rollups stay', async (t) => {
  const [ana, luis, marta] = [randomUUID(), randomUUID(), randomUUID()];
  await announce(ana, 30);
  await announce(marta, null);
  await until(async () => (await copyOf(ana))?.days === 30 && (await copyOf(marta)) !== undefined, 'the copies');
  const anaOld = await chatWith(ana, 12, 3);
  const anaQuiet = await chatWith(ana, 2, 0);
  await chatWith(luis, 4, 1); // never chose: forever
  await chatWith(marta, 6, 0); // chose forever
  await sql`insert into analytics.totals (user_id, metric, value) values (${ana}, 'whatsapp.received', 17)`;
  await sql`insert into analytics.hourly (user_id, metric, hour, value) values (${ana}, 'whatsapp.received', ${daysAgo(40)}, 14)`;
  await sql`insert into analytics.whatsapp_chats (user_id, chat_id, last_seen) values (${ana}, 'a@s.whatsapp.net', ${daysAgo(40)})`;
  // The events of an old message and of a recent one, each with the text and sender it carried for the webhooks.
  const said = (at: Date) => createEvent('whatsapp.message.received', ana, { messageId: randomUUID(), chatId: 'a@s.whatsapp.net', text: 'Hola', from: 'a@s.whatsapp.net', senderName: 'Ana' }, at);
  await sql.begin((tx) => platform.outbox('whatsapp').append(tx, [said(daysAgo(40)), said(daysAgo(10))]));

  const reports: RetentionReport[] = [];
  t.equal(await job(reports).runOnce(), 'ran');
  t.equal(reports[0]!.erased.messages, 14);
  t.equal(reports[0]!.statements, 3 + 1 + 1, '14 messages in batches of 5 (5, 5, 4), then one statement for the chat previews, one for the events\' texts');
  const events = await sql<{ data: Record<string, unknown> }[]>`
    select data from whatsapp.outbox where user_id = ${ana} and type = 'whatsapp.message.received' order by occurred_at`;
  t.same(
    events.map((e) => [e.data.text, e.data.from, e.data.senderName]),
    [[undefined, undefined, undefined], ['Hola', 'a@s.whatsapp.net', 'Ana']],
    'the old event keeps its ids, not what was said or by whom; the recent one keeps both',
  );
  t.equal(await count(ana), 3, "ana's 3 recent messages stay");
  t.equal(await newer(ana), 3);
  t.equal(await count(luis), 5, 'an owner who never chose keeps everything');
  t.equal(await count(marta), 6, 'forever keeps everything');
  const chats = await sql<{ id: string; lastText: string; lastAt: Date }[]>`select id, last_text, last_at from whatsapp.chats where user_id = ${ana}`;
  t.same(Object.fromEntries(chats.map((c) => [c.id, c.lastText])), { [anaOld]: 'último mensaje', [anaQuiet]: '' }, 'a chat quiet for longer loses its preview text, keeps its place');
  t.equal(chats.length, 2, 'the chats stay');
  const [rollups] = await sql<{ totals: string; hourly: string; chats: string }[]>`
    select (select sum(value) from analytics.totals where user_id = ${ana}) as totals,
           (select sum(value) from analytics.hourly where user_id = ${ana}) as hourly,
           (select count(*) from analytics.whatsapp_chats where user_id = ${ana}) as chats`;
  t.same(rollups, { totals: '17', hourly: '14', chats: '1' }, 'analytics totals are not erased');
  const [references] = await sql<{ n: string }[]>`
    select count(*) as n from information_schema.referential_constraints rc
    join information_schema.table_constraints tc on tc.constraint_name = rc.constraint_name and tc.constraint_schema = rc.constraint_schema
    where tc.table_schema = 'analytics'`;
  t.equal(Number(references!.n), 0, 'no analytics table references another (nothing cascades into the rollups)');
});

t.test('two replicas running the job at once erase once: one claims the day, the other skips it', async (t) => {
  const owner = randomUUID();
  await announce(owner, 20);
  await until(async () => (await copyOf(owner))?.days === 20, 'the copy');
  await chatWith(owner, 11, 2);
  const reports: RetentionReport[] = [];
  const name = `test.whatsapp.retention.${randomUUID()}`;
  const outcomes = await Promise.all([job(reports, name).runOnce(), job(reports, name).runOnce()]);
  t.same(outcomes.sort(), ['ran', 'skipped']);
  t.equal(reports.length, 1, 'one run');
  t.equal(reports[0]!.erased.messages, 11);
  t.equal(await count(owner), 2, 'the 2 messages of 10 days stay');
});

t.test('GET /whatsapp/retention/preview counts the messages a shorter retention would erase, and erases none', async (t) => {
  const me = signToken(app);
  await chatWith(me.userId, 4, 2);
  await sql`update whatsapp.messages set sent_at = now() - interval '40 days' where user_id = ${me.userId} and sent_at < ${daysAgo(30)}`;
  await sql`update whatsapp.messages set sent_at = now() - interval '10 days' where user_id = ${me.userId} and sent_at >= ${daysAgo(30)}`;
  const res = await app.inject({ url: '/whatsapp/retention/preview?days=30', headers: { authorization: me.authorization } });
  t.equal(res.statusCode, 200);
  t.match(res.json(), { days: 30, count: 4 });
  t.equal(await count(me.userId), 6, 'nothing erased');
});
