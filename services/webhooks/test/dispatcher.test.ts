import { randomUUID } from 'node:crypto';
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { createEvent, createLogger, HostGuard, type Platform } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import type { WebhookEventType } from '@asistente/contracts';
import { DeliveriesConsumer, DeliveriesRepository, DISABLED_AFTER_FAILURES, Dispatcher, EndpointsRepository, HttpSender } from '../src/app.js';
import { newSecret } from '../src/domain/signature.js';
import { Receiver } from './receiver.js';

// The dispatcher's decisions read an injected clock: a day of retries runs in milliseconds, no sleeps.
const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const { sql } = platform.db;
const log = createLogger('silent', 'test');
const endpoints = new EndpointsRepository(sql);
const deliveries = new DeliveriesRepository(sql);
const receiver = await Receiver.start();
t.teardown(() => receiver.close());

class Clock {
  constructor(public at = new Date()) {}
  now = () => this.at;
  advance(ms: number) {
    this.at = new Date(this.at.getTime() + ms);
  }
}

function dispatcher(p: Platform, clock: Clock, allowed = '127.0.0.1') {
  return new Dispatcher(sql, deliveries, endpoints, p.secrets, new HttpSender(new HostGuard(allowed)), log, { now: clock.now, batch: 10 });
}

async function endpointFor(userId: string, events: WebhookEventType[] = ['contact.created']) {
  const secret = newSecret();
  const row = await endpoints.create(
    { id: randomUUID(), userId, url: receiver.url, events, description: '', idsOnly: false, secretEnc: platform.secrets.seal(secret, endpoints.secretContext(userId)) },
    10,
  );
  return { ...row!, secret };
}

/** A fresh owner with one endpoint, a dispatcher and the consumer that queues its deliveries, on a clock of their own. */
async function scene(allowed = '127.0.0.1') {
  const clock = new Clock();
  const d = dispatcher(platform, clock, allowed);
  const userId = randomUUID();
  const endpoint = await endpointFor(userId);
  const consumer = new DeliveriesConsumer(sql, endpoints, deliveries, () => {}, clock.now);
  /** A contacts.contact.created of this owner, at the clock's time. */
  const contactCreated = (hasEmail = false) => createEvent('contacts.contact.created', userId, { contactId: randomUUID(), hasEmail }, clock.at);
  return { clock, d, userId, endpoint, consumer, contactCreated };
}

const deliveryOf = async (endpointId: string) =>
  (await sql<{ status: string; attempts: number; error: string | null; nextAttemptAt: Date | null; responseStatus: number | null }[]>`
    select status, attempts, error, next_attempt_at, response_status from webhooks.deliveries where endpoint_id = ${endpointId}`)[0]!;

t.test('a failing receiver gets growing retries for a day, then the endpoint is disabled with its reason', async (t) => {
  const { clock, d, userId, endpoint, consumer, contactCreated } = await scene();
  await consumer.handle([contactCreated()]);
  receiver.status = 503;
  const start = receiver.requests.length;
  const gaps: number[] = [];
  let last = clock.at.getTime();
  for (let round = 0; round < 60; round++) {
    await d.drain();
    const row = await deliveryOf(endpoint.id);
    if (row.status !== 'pending') break;
    gaps.push(row.nextAttemptAt!.getTime() - last);
    last = row.nextAttemptAt!.getTime();
    t.equal(await d.drain(), 0, 'nothing is sent before it is due');
    clock.at = row.nextAttemptAt!;
  }
  receiver.status = 204;
  t.same(gaps.slice(0, 7), [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 3_600_000], 'growing delays, then hourly');
  const row = await deliveryOf(endpoint.id);
  t.equal(row.status, 'failed');
  t.equal(row.responseStatus, 503);
  t.equal(receiver.requests.length - start, row.attempts, 'one request per attempt');
  t.ok(row.attempts >= 25 && row.attempts <= 30, `${row.attempts} attempts in the day`);
  const [after] = await endpoints.list(userId);
  t.equal(after!.enabled, false);
  t.match(after!.disabledReason, DISABLED_AFTER_FAILURES);
  t.match(after!.disabledReason, /HTTP 503/);

  // While disabled nothing new is queued for it; re-enabled, it starts clean.
  await consumer.handle([contactCreated()]);
  t.equal((await sql`select 1 from webhooks.deliveries where endpoint_id = ${endpoint.id}`).length, 1);
  const back = await endpoints.update(userId, endpoint.id, { enabled: true, disabledReason: null });
  t.match(back, { enabled: true, disabledReason: null, failingSince: null });
});

t.test('a success in between clears the failure record; a recovered receiver gets the retry', async (t) => {
  const { clock, d, userId, endpoint, consumer, contactCreated } = await scene();
  await consumer.handle([contactCreated(true)]);
  receiver.status = 500;
  await d.drain();
  t.ok((await endpoints.find(userId, endpoint.id))!.failingSince, 'failing');
  receiver.status = 200;
  clock.advance(5_000);
  await d.drain();
  t.match(await deliveryOf(endpoint.id), { status: 'delivered', attempts: 2, error: null });
  t.equal((await endpoints.find(userId, endpoint.id))!.failingSince, null);
});

t.test('two dispatchers (replicas) never send one delivery twice', async (t) => {
  const { clock, d: one, endpoint, consumer, contactCreated } = await scene();
  const two = dispatcher(platform, clock);
  const events = Array.from({ length: 60 }, () => contactCreated());
  await consumer.handle(events);
  const start = receiver.requests.length;
  const [a, b] = await Promise.all([one.drain(), two.drain()]);
  await Promise.all([one.drain(), two.drain()]);
  t.equal(a + b, 60, 'every delivery claimed once');
  const ids = receiver.requests.slice(start).map((r) => r.headers['webhook-id']);
  t.equal(ids.length, 60);
  t.equal(new Set(ids).size, 60, 'no webhook-id twice');
  const verifier = new Webhook(endpoint.secret);
  for (const request of receiver.requests.slice(start)) verifier.verify(request.body, request.headers as Record<string, string>);
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from webhooks.deliveries where endpoint_id = ${endpoint.id} and status = 'delivered' and attempts = 1`;
  t.equal(row!.n, 60);
});

t.test('the host guard runs again on every delivery', async (t) => {
  const { d: strict, endpoint, consumer, contactCreated } = await scene('');
  const start = receiver.requests.length;
  await consumer.handle([contactCreated()]);
  await strict.drain();
  t.match(await deliveryOf(endpoint.id), { status: 'pending', attempts: 1, responseStatus: null, error: /red interna/ });
  t.equal(receiver.requests.length, start, 'nothing left for the loopback address');
});

t.test('the delivery log keeps 30 days', async (t) => {
  const { clock, d, endpoint, consumer, contactCreated } = await scene();
  await consumer.handle([contactCreated()]);
  await d.drain();
  clock.advance(29 * 86_400_000);
  await d.purge();
  t.equal((await sql`select 1 from webhooks.deliveries where endpoint_id = ${endpoint.id}`).length, 1, 'kept at 29 days');
  clock.advance(2 * 86_400_000);
  t.ok((await d.purge()) >= 1);
  t.equal((await sql`select 1 from webhooks.deliveries where endpoint_id = ${endpoint.id}`).length, 0, 'gone after 30');
});
