import { randomUUID } from 'node:crypto';
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { createEvent, type EventEnvelope } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import webhooksService, { DeliveriesConsumer, DeliveriesRepository, EndpointsRepository } from '../src/app.js';
import { Receiver } from './receiver.js';

// JetStream when NATS_URL is set (the second pass), the in-process bus otherwise: the same path from commit.
const platform = await createTestPlatform(t, { nats: true, config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const app = await buildServiceApp(t, webhooksService, platform);
const receiver = await Receiver.start();
t.teardown(() => receiver.close());

/** Commits events the way a producer does: in a transaction, through its outbox. */
const commit = (events: EventEnvelope[]) => platform.db.sql.begin((tx) => platform.outbox('platform').append(tx, events));

async function endpoint(authorization: string, events: string[]) {
  const response = await app.inject({ method: 'POST', url: '/webhooks', headers: { authorization }, payload: { url: receiver.url, events } });
  return response.json() as { id: string; secret: string };
}

t.test('a committed contact.created reaches the receiver once, signed as Standard Webhooks says', async (t) => {
  const me = signToken(app);
  const { id, secret } = await endpoint(me.authorization, ['contact.created', 'contact.deleted']);
  const contactId = randomUUID();
  const before = receiver.requests.length;
  const created = createEvent('contacts.contact.created', me.userId, { contactId, hasEmail: true });
  // Noise: another user's event, a type not subscribed to, an internal event that is no webhook.
  await commit([
    createEvent('contacts.contact.created', randomUUID(), { contactId: randomUUID(), hasEmail: false }),
    createEvent('contacts.contact.updated', me.userId, { contactId }),
    createEvent('teams.message.sent', me.userId, { messageId: 'm', channelId: 'c' }),
    created,
  ]);
  await receiver.received(before + 1);
  const got = receiver.requests[before]!;
  const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string; timestamp: string; data: unknown };
  t.same(verified, { type: 'contact.created', timestamp: created.occurredAt, data: { contactId, hasEmail: true } }, 'the library verifies it and reads the typed payload');
  t.match(got.headers['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/);
  t.equal(got.headers['content-type'], 'application/json');
  t.throws(() => new Webhook(secret).verify(got.body.replace('true', 'false'), got.headers as Record<string, string>), 'a changed body fails');

  // The same event again (a redelivery after a lost ack) adds no delivery.
  await platform.bus.publish([created]);
  const log = async () => (await app.inject({ url: `/webhooks/${id}/deliveries`, headers: { authorization: me.authorization } })).json();
  let page = await log();
  while (page.data[0]?.status !== 'delivered') page = await log();
  t.equal(page.pagination.total, 1, 'one delivery for one event');
  t.match(page.data[0], { type: 'contact.created', status: 'delivered', attempts: 1, responseStatus: 204, error: null, messageId: got.headers['webhook-id'] });
  t.type(page.data[0].latencyMs, 'number');
  t.same(page.data[0].payload, verified);
  t.equal(receiver.requests.length, before + 1, 'the receiver heard it once');
});

t.test('"Probar" sends webhook.test now and answers with the result; "Reenviar" sends the same message again', async (t) => {
  const me = signToken(app);
  const { id, secret } = await endpoint(me.authorization, ['email.sent']);
  const before = receiver.requests.length;
  const tested = await app.inject({ method: 'POST', url: `/webhooks/${id}/test`, headers: { authorization: me.authorization } });
  t.equal(tested.statusCode, 200);
  const delivery = tested.json();
  t.match(delivery, { type: 'webhook.test', status: 'delivered', responseStatus: 204, attempts: 1, payload: { type: 'webhook.test', data: { endpointId: id } } });
  t.equal(receiver.requests.length, before + 1, 'sent before the answer');
  const first = receiver.requests[before]!;
  t.match(new Webhook(secret).verify(first.body, first.headers as Record<string, string>), { type: 'webhook.test' });

  receiver.status = 500;
  const again = await app.inject({ method: 'POST', url: `/webhooks/${id}/deliveries/${delivery.id}/retry`, headers: { authorization: me.authorization } });
  receiver.status = 204;
  t.equal(again.statusCode, 200);
  t.match(again.json(), { id: delivery.id, status: 'failed', attempts: 2, responseStatus: 500, error: 'El receptor respondió HTTP 500' }, 'a failed test is not retried');
  t.equal(receiver.requests[before + 1]!.headers['webhook-id'], first.headers['webhook-id'], 'the same webhook-id');

  const resent = await app.inject({ method: 'POST', url: `/webhooks/${id}/deliveries/${delivery.id}/retry`, headers: { authorization: me.authorization } });
  t.match(resent.json(), { status: 'delivered', attempts: 3, error: null });
  const missing = await app.inject({ method: 'POST', url: `/webhooks/${id}/deliveries/${randomUUID()}/retry`, headers: { authorization: me.authorization } });
  t.equal(missing.statusCode, 404);
  const metrics = await platform.metrics.text();
  t.match(metrics, /asistente_webhook_deliveries_total\{[^}]*outcome="delivered"[^}]*\} [1-9]/, 'attempts counted by outcome');
  t.match(metrics, /asistente_webhook_deliveries_total\{[^}]*outcome="failed"[^}]*\} [1-9]/);
});

t.test('a disabled endpoint gets nothing; an old mailbox sync is not news', async (t) => {
  const me = signToken(app);
  const off = await endpoint(me.authorization, ['contact.deleted']);
  await app.inject({ method: 'PATCH', url: `/webhooks/${off.id}`, headers: { authorization: me.authorization }, payload: { enabled: false } });
  const on = await endpoint(me.authorization, ['email.received', 'contact.deleted']);
  const before = receiver.requests.length;
  await commit([
    createEvent('email.message.received', me.userId, { messageId: 'old', provider: 'imap' }, new Date(Date.now() - 86_400_000)),
    createEvent('contacts.contact.deleted', me.userId, { contactId: randomUUID() }),
  ]);
  await receiver.received(before + 1);
  const [row] = await platform.db.sql<{ n: number }[]>`select count(*)::int as n from webhooks.deliveries where user_id = ${me.userId}`;
  t.equal(row!.n, 1, 'one delivery: contact.deleted to the enabled endpoint');
  t.match(JSON.parse(receiver.requests[before]!.body), { type: 'contact.deleted' });
  t.ok(on.id);
});

t.test('a payload carries the contact\'s fields; an endpoint set to "Solo identificadores" gets the ids alone', async (t) => {
  const me = signToken(app);
  const full = await endpoint(me.authorization, ['contact.created']);
  const created = await app.inject({ method: 'POST', url: '/webhooks', headers: { authorization: me.authorization }, payload: { url: receiver.url, events: ['contact.created'], idsOnly: true } });
  t.equal(created.statusCode, 201);
  t.equal(created.json().idsOnly, true, 'the option is kept');
  const listed = (await app.inject({ url: '/webhooks', headers: { authorization: me.authorization } })).json();
  t.same(
    listed.endpoints.map((e: { id: string; idsOnly: boolean }) => [e.id, e.idsOnly]),
    [[full.id, false], [created.json().id, true]],
  );
  const before = receiver.requests.length;
  const contactId = randomUUID();
  const contact = { firstName: 'Lucía', lastName: 'Pérez', email: 'lucia@ejemplo.es', phone: '+34 600 111 222', company: 'Panadería Sol', tags: ['cliente'] };
  await commit([createEvent('contacts.contact.created', me.userId, { contactId, hasEmail: true, contact })]);
  await receiver.received(before + 2);
  const bodies = receiver.requests.slice(before, before + 2).map((r) => JSON.parse(r.body) as { data: Record<string, unknown> });
  const withFields = bodies.find((b) => 'firstName' in b.data);
  const idsOnly = bodies.find((b) => !('firstName' in b.data));
  t.same(withFields?.data, { contactId, hasEmail: true, ...contact }, 'name, email, phone, company and tags beside the ids');
  t.same(idsOnly?.data, { contactId, hasEmail: true }, 'the ids alone: the shape before the fields');

  const patched = await app.inject({ method: 'PATCH', url: `/webhooks/${full.id}`, headers: { authorization: me.authorization }, payload: { idsOnly: true } });
  t.equal(patched.json().idsOnly, true, 'switched on by a PATCH');
  const bad = await app.inject({ method: 'PATCH', url: `/webhooks/${full.id}`, headers: { authorization: me.authorization }, payload: { idsOnly: 'sí' } });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().message, /Solo identificadores/);
});

t.test("an import's batch event: a delivery per contact of the types an endpoint hears, none without one, none again when redelivered", async (t) => {
  const me = signToken(app);
  const other = signToken(app);
  await endpoint(me.authorization, ['contact.updated']);
  const before = receiver.requests.length;
  const added = { contactId: randomUUID(), created: true, contact: { firstName: 'Lucía', lastName: 'Pérez', email: null, phone: null, company: null, tags: [] } };
  const changed = {
    contactId: randomUUID(),
    created: false,
    changed: ['company'],
    contact: { firstName: 'Pedro', lastName: 'Gil', email: 'pedro@ejemplo.es', phone: null, company: 'Talleres Norte', tags: ['proveedor'] },
  };
  const batch = createEvent('contacts.import.written', me.userId, { contacts: [added, changed] });
  // The owner without an endpoint first: once the other's delivery arrives, this one was handled too.
  await commit([createEvent('contacts.import.written', other.userId, { contacts: [added, changed] }), batch]);
  await receiver.received(before + 1);
  t.same(
    JSON.parse(receiver.requests[before]!.body),
    { type: 'contact.updated', timestamp: batch.occurredAt, data: { contactId: changed.contactId, changed: ['company'], ...changed.contact } },
    'the same payload as a single update of the contact',
  );
  const queued = async (userId: string) => (await platform.db.sql<{ n: number }[]>`select count(*)::int as n from webhooks.deliveries where user_id = ${userId}`)[0]!.n;
  t.equal(await queued(me.userId), 1, 'the added contact is not news to an endpoint hearing updates only');
  t.equal(await queued(other.userId), 0, 'nothing for an owner without an endpoint');
  const sql = platform.db.sql;
  const consumer = new DeliveriesConsumer(sql, new EndpointsRepository(sql), new DeliveriesRepository(sql), () => {});
  t.equal(await consumer.handle([batch]), 0, 'a redelivered batch queues nothing new');
});

t.test('the log keeps every attempt: a failed delivery and its "Reenviar" are two attempts, the failure kept', async (t) => {
  const me = signToken(app);
  const { id } = await endpoint(me.authorization, ['contact.deleted']);
  const before = receiver.requests.length;
  receiver.status = 500;
  await commit([createEvent('contacts.contact.deleted', me.userId, { contactId: randomUUID() })]);
  await receiver.received(before + 1);
  const log = async () => (await app.inject({ url: `/webhooks/${id}/deliveries`, headers: { authorization: me.authorization } })).json();
  let page = await log();
  while (page.data[0]?.attemptLog.length !== 1) page = await log();
  receiver.status = 204;
  t.match(page.data[0], { status: 'pending', attempts: 1, responseStatus: 500 }, 'retrying after the failure');

  const resent = await app.inject({ method: 'POST', url: `/webhooks/${id}/deliveries/${page.data[0].id}/retry`, headers: { authorization: me.authorization } });
  t.equal(resent.statusCode, 200);
  const after = resent.json();
  t.match(after, { status: 'delivered', responseStatus: 204 });
  t.equal(after.attemptLog.length, after.attempts, 'one row per attempt');
  t.match(after.attemptLog[0], { attempt: 1, status: 'failed', responseStatus: 500, error: 'El receptor respondió HTTP 500' }, 'the first failure is still there');
  t.match(after.attemptLog.at(-1), { attempt: after.attempts, status: 'delivered', responseStatus: 204, error: null });
  t.ok(after.attemptLog.every((a: { at: string }) => !Number.isNaN(Date.parse(a.at))), 'each with its time');
  t.same((await log()).data[0].attemptLog, after.attemptLog, 'the log lists the same attempts');
});
