import { randomUUID } from 'node:crypto';
import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import analyticsService, { rebuildRollups } from '../src/app.js';
import { event, HOUR } from './fixtures.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, analyticsService, platform);
const publish = (e: unknown) => platform.bus.publish([e as never]);

async function dashboard(authorization: string) {
  return (await app.inject({ url: '/analytics/dashboard?period=7d', headers: { authorization } })).json();
}

t.test('the same event twice, out of order, or redelivered after a lost ack counts once', async (t) => {
  const me = signToken(app);
  const now = Date.now();
  const first = event('email.message.sent', me.userId, new Date(now - 2 * HOUR), { messageId: 'm1', provider: 'gmail' });
  const second = event('email.message.received', me.userId, new Date(now - 5 * HOUR), { messageId: 'm2', provider: 'imap' });
  const contact = event('contacts.contact.created', me.userId, new Date(now - HOUR), { contactId: randomUUID(), hasEmail: true });
  await publish(first);
  await publish(contact);
  await publish(second); // older than what came before it
  await publish(first); // a duplicate delivery
  // A crash after commit and before the ack: the bus delivers it again.
  await publish(contact);
  t.same(await dashboard(me.authorization), { totalContacts: 1, totalEvents: 0, totalEmails: 2, totalMessages: 0 });
  const [row] = await platform.db.sql<{ n: string }[]>`select count(*) as n from analytics.events where user_id = ${me.userId}`;
  t.equal(Number(row!.n), 3);
});

t.test('a batch applies each new event once, even when it repeats one', async (t) => {
  const me = signToken(app);
  const sent = event('whatsapp.message.sent', me.userId, new Date(), { messageId: 'b1', chatId: 'chat' });
  const received = event('whatsapp.message.received', me.userId, new Date(), { messageId: 'b2', chatId: 'chat' });
  await platform.bus.publish([sent, received, sent] as never[]);
  await platform.bus.publish([received] as never[]);
  t.equal((await dashboard(me.authorization)).totalMessages, 2);
});

t.test("the security log's lines are auth's: analytics neither counts nor keeps them", async (t) => {
  const me = signToken(app);
  const line = event('security.activity.recorded', me.userId, new Date(), {
    activity: 'login.succeeded',
    ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0 Chrome/131.0',
    detail: {},
  });
  await platform.bus.publish([line] as never[]);
  await platform.bus.publish([event('teams.message.sent', me.userId, new Date(), { messageId: 't9', channelId: 'c9' })] as never[]);
  t.equal((await dashboard(me.authorization)).totalMessages, 1, 'the message after it was applied');
  const kept = await platform.db.sql`select 1 from analytics.events where id = ${line.id}`;
  t.equal(kept.length, 0, 'no copy of the address or the browser in analytics');
  const parked = await platform.db.sql`select 1 from analytics.parked_events where event_id = ${line.id}`;
  t.equal(parked.length, 0, 'and not parked as unknown');
});

t.test('invalid events are parked and counted; the consumer keeps going', async (t) => {
  const me = signToken(app);
  const [before] = await platform.db.sql<{ n: string }[]>`select count(*) as n from analytics.parked_events`;
  await publish({ id: randomUUID(), type: 'email.message.sent', userId: me.userId, occurredAt: new Date().toISOString(), data: { provider: 'fax' } });
  await publish({ id: 'no-uuid', type: 'nada.que.ver', userId: me.userId, occurredAt: 'ayer', data: {} });
  await publish(null);
  await publish(event('teams.message.sent', me.userId, new Date(), { messageId: 't1', channelId: 'c1' }));
  const [after] = await platform.db.sql<{ n: string }[]>`select count(*) as n from analytics.parked_events`;
  t.equal(Number(after!.n) - Number(before!.n), 3, 'three parked');
  t.equal((await dashboard(me.authorization)).totalMessages, 1, 'the valid one after them was applied');
});

t.test('rebuild recomputes the same figures from the history', async (t) => {
  const me = signToken(app);
  const now = Date.now();
  for (let i = 0; i < 60; i++) {
    const at = new Date(now - i * 3 * HOUR);
    await publish(event('whatsapp.message.received', me.userId, at, { messageId: `w${i}`, chatId: `chat${i % 4}` }));
    if (i % 3 === 0) await publish(event('contacts.contact.created', me.userId, at, { contactId: randomUUID(), hasEmail: false }));
    if (i % 10 === 0) await publish(event('contacts.contact.deleted', me.userId, at, { contactId: randomUUID() }));
  }
  const read = async () =>
    Promise.all(
      ['dashboard?period=30d', 'activity?period=30d', 'contacts-growth?period=7d', 'whatsapp?period=7d', 'productivity?period=30d'].map(
        async (path) => (await app.inject({ url: `/analytics/${path}`, headers: { authorization: me.authorization } })).json(),
      ),
    );
  const incremental = await read();
  t.equal(incremental[0].totalContacts, 20 - 6);
  t.equal(incremental[3].contacts, 4);
  const report = await rebuildRollups(platform.db.sql, 7);
  t.ok(report.events >= 86);
  t.same(await read(), incremental);
});
