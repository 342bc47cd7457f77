// Meta's statuses that arrive before the send's answer gave the message its Meta id are kept (bounded, expiring) and applied once the id is stored.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { EARLY_RECEIPTS_MAX, EARLY_RECEIPTS_TTL_MINUTES } from '../src/domain/cloud-receipts.repository.js';
import { CloudApiPeer, injectInto, type PeerNumber } from './cloud-api-peer.js';
import { until, user, whatsappApp } from './support/harness.js';

const APP_SECRET = 'receipts-app-secret-0123456789';
const peer = await CloudApiPeer.start({ appSecret: APP_SECRET });
t.teardown(() => peer.close());
const platform = await createTestPlatform(t, { config: { WHATSAPP_CLOUD_API_URL: peer.url, WHATSAPP_CLOUD_APP_SECRET: APP_SECRET, WHATSAPP_CLOUD_VERIFY_TOKEN: 'v' } });
const sql = platform.db.sql;
const h = await whatsappApp(t, platform, { cloudTiming: { tickMs: 100, leaseMs: 2_000, claimMs: 2_000 }, graphTiming: { timeoutMs: 5_000, retries: 1, backoffMs: 10 } });
peer.postTo(injectInto(h.app));

async function cloudUser() {
  const u = user(h.app);
  const digits = () => String(100_000_000_000_000 + Math.floor(Math.random() * 800_000_000_000_000));
  const number: PeerNumber = { phoneNumberId: digits(), businessAccountId: digits(), token: `EAAG${randomUUID().replaceAll('-', '')}`, displayPhone: '+34 910 55 66 77', verifiedName: 'Taller Sur', qualityRating: 'GREEN' };
  peer.numbers.set(number.phoneNumberId, number);
  const connected = await u.call('POST', '/whatsapp/cloud/connect', { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId, accessToken: number.token });
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status}`);
  return { ...u, number };
}

const customer = () => `346${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const kept = (userId: string) => sql<{ wamid: string; status: string }[]>`select wamid, status from whatsapp.cloud_early_receipts where user_id = ${userId} order by status`;
const statusOf = async (id: string) => (await sql<{ status: string; waId: string }[]>`select status, wa_id from whatsapp.messages where id = ${id}`)[0];

t.test("statuses posted before the send's answer are kept, then applied when Meta's id is stored", async (t) => {
  const u = await cloudUser();
  const from = customer();
  await peer.customerWrites({ from, text: 'Hola' }, u.number);
  await until(async () => (await sql`select 1 from whatsapp.messages where user_id = ${u.userId}`).length === 1, 'the customer stored');

  // Meta posts the status webhooks, and they are processed, before it answers the send.
  peer.beforeAnswer = async (sent) => {
    t.equal(await peer.status(sent.id, 'delivered', u.number), 200, 'delivered, before the answer');
    t.equal(await peer.status(sent.id, 'read', u.number), 200, 'read, before the answer');
    await until(async () => (await kept(u.userId)).length === 2, 'both statuses kept');
    t.same(await kept(u.userId), [{ wamid: sent.id, status: 'delivered' }, { wamid: sent.id, status: 'read' }], 'kept while no message carries the id');
  };
  t.teardown(() => {
    peer.beforeAnswer = undefined;
  });
  const sent = await u.call('POST', '/whatsapp/messages', { jid: `${from}@s.whatsapp.net`, text: 'Ya está listo' });
  t.equal(sent.status, 201, 'queued');
  const delivered = await until(() => peer.received(from)[0], 'the send at the customer');
  await until(async () => (await statusOf(sent.body.id as string))?.status === 'read', 'read, once the id is stored');
  t.equal((await statusOf(sent.body.id as string))?.waId, delivered.id, "Meta's id stored");
  await until(async () => (await kept(u.userId)).length === 0, 'the kept statuses forgotten once applied');
  // The drain announces the send after Meta's answer, in the transaction that marks it announced.
  await until(async () => (await sql<{ announced: boolean }[]>`select announced from whatsapp.messages where id = ${sent.body.id as string}`)[0]?.announced, 'announced');
  const events = await sql`select 1 from whatsapp.outbox where user_id = ${u.userId} and type = 'whatsapp.message.sent'`;
  t.equal(events.length, 1, 'announced as sent once');
});

t.test('a kept status whose message got its id without it is applied by the catch-up pass; old and excess ones are dropped', async (t) => {
  const u = await cloudUser();
  const from = customer();
  await peer.customerWrites({ from, text: 'Hola' }, u.number);
  await until(async () => (await sql`select 1 from whatsapp.messages where user_id = ${u.userId}`).length === 1, 'the customer stored');
  const sent = await u.call('POST', '/whatsapp/messages', { jid: `${from}@s.whatsapp.net`, text: 'Enviado' });
  await until(async () => (await statusOf(sent.body.id as string))?.status === 'sent', 'sent');
  const wamid = (await statusOf(sent.body.id as string))!.waId;
  // As a replica that died between storing the id and applying what was kept leaves it.
  await sql`insert into whatsapp.cloud_early_receipts (user_id, wamid, status) values (${u.userId}, ${wamid}, 'delivered')`;
  await until(async () => (await statusOf(sent.body.id as string))?.status === 'delivered', 'applied by the catch-up pass');
  await until(async () => (await kept(u.userId)).length === 0, 'and forgotten');

  await sql`
    insert into whatsapp.cloud_early_receipts (user_id, wamid, status, received_at)
    values (${u.userId}, 'wamid.old', 'read', now() - ${EARLY_RECEIPTS_TTL_MINUTES + 1} * interval '1 minute')`;
  await until(async () => (await kept(u.userId)).length === 0, 'an expired status pruned');

  await sql`
    insert into whatsapp.cloud_early_receipts (user_id, wamid, status)
    select ${u.userId}, 'wamid.flood.' || n, 'delivered' from generate_series(1, ${EARLY_RECEIPTS_MAX}) n`;
  t.equal(await peer.status('wamid.not-ours', 'delivered', u.number), 200, 'a status beyond the bound is acknowledged');
  await until(async () => (await sql`select 1 from whatsapp.cloud_webhooks where user_id = ${u.userId}`).length === 0, 'processed');
  t.equal((await kept(u.userId)).length, EARLY_RECEIPTS_MAX, 'and not kept');
  t.same(await sql`select 1 from whatsapp.cloud_early_receipts where wamid = 'wamid.not-ours'`, [], 'the new one dropped');
});
