// The Cloud API at two replicas on one PostgreSQL: webhooks hitting either (or both, repeated) store and
// announce each message once, and sends accepted by either reach the customer once, in the order accepted;
// a forged webhook is refused at either, and the 24-hour window holds whichever replica is asked.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createTestPlatform, signToken } from '@asistente/kit/testing';
import { CLOUD_WINDOW_CLOSED } from '@asistente/contracts';
import { CloudApiPeer, injectInto, type PeerNumber } from './cloud-api-peer.js';
import { until, user, whatsappApp } from './support/harness.js';

const SKIP = process.env.DATABASE_URL ? false : 'two replicas need PostgreSQL (the embedded database has one replica)';
const APP_SECRET = 'replicas-app-secret-0123456789';
const peer = await CloudApiPeer.start({ appSecret: APP_SECRET });
t.teardown(() => peer.close());
const platform = SKIP
  ? undefined
  : await createTestPlatform(t, { config: { WHATSAPP_CLOUD_API_URL: peer.url, WHATSAPP_CLOUD_APP_SECRET: APP_SECRET, WHATSAPP_CLOUD_VERIFY_TOKEN: 'v' } });

/** Two replicas of the service on one database, and one owner signed in at each. */
async function twoReplicas(t: Parameters<typeof whatsappApp>[0]) {
  // A slow catch-up tick: what happens here is the work of the replica that received the call.
  const options = { exclusive: false, cloudTiming: { tickMs: 60_000, leaseMs: 5_000, claimMs: 5_000 }, graphTiming: { timeoutMs: 2_000, retries: 1, backoffMs: 10 } };
  const a = await whatsappApp(t, platform!, options);
  const b = await whatsappApp(t, platform!, options);
  const onA = user(a.app);
  return { sql: platform!.db.sql, a, b, onA, onB: signToken(b.app, onA.userId) };
}

const CUSTOMERS = 10;
const SENDS = 20;

t.test('webhooks at replica A (and repeated at B) stored once; sends through replica B delivered once, in order', { skip: SKIP }, async (t) => {
  const { sql, a, b, onA, onB } = await twoReplicas(t);
  const number = peer.numbers.values().next().value!;
  const connected = await onA.call('POST', '/whatsapp/cloud/connect', { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId, accessToken: number.token });
  t.equal(connected.status, 200, 'connected through A');
  const status = await b.app.inject({ url: '/api/whatsapp/status', headers: { authorization: onB.authorization } });
  t.match(status.json(), { provider: 'cloud', connected: true }, 'B answers the same status');

  const customers = Array.from({ length: CUSTOMERS }, (_, i) => `3461100${String(i).padStart(4, '0')}`);
  const webhooks = customers.map((from) => peer.customerWebhook({ from, name: `Cliente ${from.slice(-2)}`, text: `Hola desde ${from}` }));
  peer.postTo(injectInto(a.app));
  const started = Date.now();
  const first = await Promise.all(webhooks.map((w) => peer.post(w.body)));
  const acceptMs = Date.now() - started;
  peer.postTo(injectInto(b.app));
  const repeated = await Promise.all(webhooks.map((w) => peer.post(w.body)));
  t.same([...first, ...repeated], Array(CUSTOMERS * 2).fill(200), 'every post acknowledged');
  await until(async () => (await sql`select 1 from whatsapp.messages where user_id = ${onA.userId}`).length >= CUSTOMERS, 'the messages stored');
  await until(async () => (await sql`select 1 from whatsapp.cloud_webhooks where user_id = ${onA.userId}`).length === 0, 'every webhook processed');
  const stored = await sql<{ waId: string }[]>`select wa_id from whatsapp.messages where user_id = ${onA.userId}`;
  const events = await sql`select 1 from whatsapp.outbox where user_id = ${onA.userId} and type = 'whatsapp.message.received'`;
  t.equal(stored.length, CUSTOMERS, 'each message stored once');
  t.equal(events.length, CUSTOMERS, 'each announced once');
  t.comment(`replicas cloud-webhooks: ${CUSTOMERS} webhooks accepted by A in ${acceptMs} ms, repeated at B, ${stored.length} stored`);

  // Every customer wrote: their windows are open. B sends, from two writers at once, to two customers.
  const sendOnB = async (jid: string, text: string) => {
    const response = await b.app.inject({ method: 'POST', url: '/api/whatsapp/messages', headers: { authorization: onB.authorization }, payload: { jid, text, clientMessageId: randomUUID() } });
    t.equal(response.statusCode, 201, `${text} accepted by B`);
  };
  const targets = customers.slice(0, 2);
  await Promise.all(
    targets.map(async (to, writer) => {
      for (let i = 0; i < SENDS / 2; i++) await sendOnB(`${to}@s.whatsapp.net`, `w${writer}-${i}`);
    }),
  );
  await until(() => peer.received().length >= SENDS, `${SENDS} sends at the customers`);
  const texts = peer.received().map((d) => d.text!);
  t.equal(new Set(texts).size, texts.length, 'none twice');
  targets.forEach((to, writer) => {
    t.same(
      peer.received(to).map((d) => d.text),
      Array.from({ length: SENDS / 2 }, (_, i) => `w${writer}-${i}`),
      `writer ${writer}'s sends in the order accepted`,
    );
  });
  await until(async () => (await sql`select 1 from whatsapp.messages where user_id = ${onA.userId} and direction = 'outgoing' and status = 'sent'`).length === SENDS, 'all sent');
  const sentEvents = await sql`select 1 from whatsapp.outbox where user_id = ${onA.userId} and type = 'whatsapp.message.sent'`;
  t.equal(sentEvents.length, SENDS, 'one sent event each');

  // A receipt arriving at A for a message B sent finds it by Meta's id.
  peer.postTo(injectInto(a.app));
  const last = peer.received().at(-1)!;
  t.equal(await peer.status(last.id, 'read'), 200);
  await until(async () => (await sql<{ status: string }[]>`select status from whatsapp.messages where wa_id = ${last.id}`)[0]?.status === 'read', 'read through A');
});

t.test('at two replicas: a forged webhook stores nothing at either; outside the window B refuses free text and A sends the template', { skip: SKIP }, async (t) => {
  const { sql, a, b, onA, onB } = await twoReplicas(t);
  const number: PeerNumber = { ...peer.numbers.values().next().value!, phoneNumberId: '109876543210987', businessAccountId: '209876543210987', token: `EAAG${randomUUID().replaceAll('-', '')}` };
  peer.numbers.set(number.phoneNumberId, number);
  const connected = await onA.call('POST', '/whatsapp/cloud/connect', { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId, accessToken: number.token });
  t.equal(connected.status, 200, 'connected through A');

  const from = '34622000111';
  const forged = peer.customerWebhook({ from, text: 'Soy Meta, de verdad' }, number);
  for (const [name, app] of [['A', a.app], ['B', b.app]] as const) {
    peer.postTo(injectInto(app));
    t.equal(await peer.post(forged.body, null), 401, `unsigned, at ${name}`);
    t.equal(await peer.post(forged.body, 'another-apps-secret'), 401, `re-signed with another secret, at ${name}`);
  }
  t.equal((await sql`select 1 from whatsapp.cloud_webhooks where user_id = ${onA.userId}`).length, 0, 'no webhook stored');

  // The customer last wrote 25 hours ago, received at A.
  peer.postTo(injectInto(a.app));
  await peer.customerWrites({ from, text: 'Quiero cita', timestamp: Math.floor(Date.now() / 1000) - 25 * 3600 }, number);
  await until(async () => (await sql`select 1 from whatsapp.messages where user_id = ${onA.userId}`).length === 1, 'the old message stored');
  t.equal((await sql`select 1 from whatsapp.messages where wa_id = ${forged.id}`).length, 0, 'the forged message never stored');
  const free = await b.app.inject({
    method: 'POST', url: '/api/whatsapp/messages', headers: { authorization: onB.authorization }, payload: { handle: `+${from}`, text: 'Hola de nuevo', clientMessageId: randomUUID() },
  });
  t.equal(free.statusCode, 409, 'B refuses free text outside the window');
  t.equal(free.json().message, CLOUD_WINDOW_CLOSED);
  const template = await onA.call('POST', '/whatsapp/cloud/templates/send', {
    handle: `+${from}`, name: 'recordatorio_cita', language: 'es', variables: ['Lucía', 'martes 10:00'], clientMessageId: randomUUID(),
  });
  t.equal(template.status, 201, 'A sends the approved template');
  const delivered = await until(() => peer.received(from).find((d) => d.template?.name === 'recordatorio_cita'), 'the template at the customer');
  t.same(delivered.template!.variables, ['Lucía', 'martes 10:00'], 'with its variables');
  t.equal(peer.received(from).length, 1, 'and nothing else');
});
