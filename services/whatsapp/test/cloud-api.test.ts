// WhatsApp's official Cloud API end to end against a protocol-faithful Graph peer: the webhook's handshake and
// signature, messages stored and announced like Baileys ones (once, whatever Meta repeats), the 24-hour window,
// templates, media both ways, receipts, connect's checks of the token before anything is stored, and what a
// disconnect does to the sends still queued.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { CLOUD_WINDOW_CLOSED } from '@asistente/contracts';
import { createTestPlatform } from '@asistente/kit/testing';
import { CLOUD_DISCONNECTED_UNSENT } from '../src/adapters/cloud-api/cloud-errors.js';
import type { CloudApiProvider } from '../src/adapters/cloud-api/cloud-provider.js';
import { CloudApiPeer, injectInto, signatureOf, type PeerNumber } from './cloud-api-peer.js';
import { until, user, whatsappApp } from './support/harness.js';

const APP_SECRET = 'peer-app-secret-0123456789';
const VERIFY_TOKEN = 'verificar-mi-asistente';
const peer = await CloudApiPeer.start({ appSecret: APP_SECRET });
t.teardown(() => peer.close());
const platform = await createTestPlatform(t, {
  config: { WHATSAPP_CLOUD_API_URL: peer.url, WHATSAPP_CLOUD_APP_SECRET: APP_SECRET, WHATSAPP_CLOUD_VERIFY_TOKEN: VERIFY_TOKEN },
});
const sql = platform.db.sql;
let cloud: CloudApiProvider | undefined;
const h = await whatsappApp(t, platform, {
  cloudTiming: { tickMs: 100, leaseMs: 2_000, claimMs: 2_000 },
  graphTiming: { timeoutMs: 2_000, retries: 1, backoffMs: 10 },
  onCloud: (c) => {
    cloud = c;
  },
});
peer.postTo(injectInto(h.app));

/** A number of its own per test: a phone number id belongs to one workspace. */
function newNumber(): PeerNumber {
  const digits = () => String(100_000_000_000_000 + Math.floor(Math.random() * 800_000_000_000_000));
  const number = { phoneNumberId: digits(), businessAccountId: digits(), token: `EAAG${randomUUID().replaceAll('-', '')}`, displayPhone: '+34 910 11 22 33', verifiedName: 'Ferretería Norte', qualityRating: 'GREEN' };
  peer.numbers.set(number.phoneNumberId, number);
  return number;
}

async function cloudUser() {
  const u = user(h.app);
  const number = newNumber();
  const connected = await u.call('POST', '/whatsapp/cloud/connect', { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId, accessToken: number.token });
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status}: ${JSON.stringify(connected.body)}`);
  return { ...u, number };
}

const customer = () => `346${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const messagesOf = (userId: string) =>
  sql<{ waId: string; direction: string; body: string; status: string; origin: string; media: { kind: string; caption: string | null } | null }[]>`
    select wa_id, direction, body, status, origin, media from whatsapp.messages where user_id = ${userId} order by seq`;
const eventsOf = (userId: string, type: string) =>
  sql<{ data: Record<string, unknown> }[]>`select data from whatsapp.outbox where user_id = ${userId} and type = ${type} order by occurred_at, id`;
const webhookRows = (userId: string) => sql`select 1 from whatsapp.cloud_webhooks where user_id = ${userId}`;

t.test('the verification handshake echoes the challenge only for the right verify token', async (t) => {
  const ok = await h.app.inject({ url: `/api/whatsapp/cloud/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444` });
  t.equal(ok.statusCode, 200);
  t.equal(ok.body, '1158201444', 'the challenge, as text');
  t.match(ok.headers['content-type'], /^text\/plain/);
  const wrong = await h.app.inject({ url: '/api/whatsapp/cloud/webhook?hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1158201444' });
  t.equal(wrong.statusCode, 403);
  t.notOk(wrong.body.includes('1158201444'), 'no echo');
  const noMode = await h.app.inject({ url: `/api/whatsapp/cloud/webhook?hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1` });
  t.equal(noMode.statusCode, 403);
});

t.test('connect checks the token against the API first: refused, unknown or unreachable stores nothing', async (t) => {
  const u = user(h.app);
  const number = newNumber();
  const body = { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId, accessToken: number.token };
  const badToken = await u.call('POST', '/whatsapp/cloud/connect', { ...body, accessToken: 'EAAGnotAValidToken000000000' });
  t.equal(badToken.status, 400);
  t.match(badToken.body.message, /rechazó el token de acceso/);
  const unknown = await u.call('POST', '/whatsapp/cloud/connect', { ...body, phoneNumberId: '999999999999' });
  t.equal(unknown.status, 400);
  t.match(unknown.body.message, /no encuentra ese identificador de número/);
  const badWaba = await u.call('POST', '/whatsapp/cloud/connect', { ...body, businessAccountId: '888888888888' });
  t.equal(badWaba.status, 400);
  t.match(badWaba.body.message, /cuenta de WhatsApp Business/);
  const letters = await u.call('POST', '/whatsapp/cloud/connect', { ...body, phoneNumberId: 'abc' });
  t.equal(letters.status, 400);
  t.match(letters.body.message, /solo dígitos/);
  peer.down = true;
  const down = await u.call('POST', '/whatsapp/cloud/connect', body).finally(() => {
    peer.down = false;
  });
  t.equal(down.status, 502);
  t.match(down.body.message, /No se pudo contactar con WhatsApp/);
  t.equal((await sql`select 1 from whatsapp.cloud_accounts where user_id = ${u.userId}`).length, 0, 'nothing stored');

  const agentId = randomUUID();
  h.app.revocations.vouchForTestUser(agentId);
  const agent = `Bearer ${h.app.jwt.sign({ sub: agentId, wid: u.userId, role: 'agent', jti: randomUUID(), ims: Date.now() })}`;
  const byAgent = await h.app.inject({ method: 'POST', url: '/api/whatsapp/cloud/connect', headers: { authorization: agent }, payload: body });
  t.equal(byAgent.statusCode, 403, 'an agent may not connect the number');

  const ok = await u.call('POST', '/whatsapp/cloud/connect', body);
  t.equal(ok.status, 200);
  t.same(ok.body, { connected: true, provider: 'cloud', phone: number.displayPhone, name: number.verifiedName, qualityRating: 'GREEN' });
  const [row] = await sql<{ accessTokenEnc: string }[]>`select access_token_enc from whatsapp.cloud_accounts where user_id = ${u.userId}`;
  t.match(row?.accessTokenEnc, /^v1:/, 'the token is sealed');
  t.notOk(row?.accessTokenEnc.includes(number.token));
  const status = await u.call('GET', '/whatsapp/status');
  t.match(status.body, { provider: 'cloud', connected: true, state: 'connected', phone: number.displayPhone, name: number.verifiedName, qualityRating: 'GREEN' });
  t.notOk(JSON.stringify(status.body).includes(number.token), 'no token in the status');

  const other = user(h.app);
  const taken = await other.call('POST', '/whatsapp/cloud/connect', body);
  t.equal(taken.status, 409, 'one number, one workspace');
  const qr = await u.call('POST', '/whatsapp/connect');
  t.equal(qr.status, 409, 'no QR link while the Cloud number is in use');
  t.match(qr.body.message, /usa la API oficial de WhatsApp/);

  t.equal((await u.call('POST', '/whatsapp/cloud/disconnect')).status, 200);
  t.match((await u.call('GET', '/whatsapp/status')).body, { provider: 'baileys', connected: false });
});

t.test('a signed message is stored and announced like a Baileys one, and a keyword answers through the API', async (t) => {
  const u = await cloudUser();
  await u.call('POST', '/whatsapp/auto-replies', { keyword: 'horario', response: 'Abrimos de 9 a 14 h.' });
  const from = customer();
  const started = Date.now();
  const written = await peer.customerWrites({ from, name: 'Lucía Pérez', text: '¿Cuál es el horario?' }, u.number);
  const answeredIn = Date.now() - started;
  t.equal(written.status, 200);
  t.ok(answeredIn < 1000, `answered in ${answeredIn} ms`);
  const reply = await until(() => peer.received(from)[0], 'the keyword answer at the customer');
  t.match(reply, { type: 'text', text: 'Abrimos de 9 a 14 h.', phoneNumberId: u.number.phoneNumberId });
  const stored = await until(async () => {
    const rows = await messagesOf(u.userId);
    return rows.length === 2 && rows[1]!.status === 'sent' ? rows : undefined;
  }, 'both messages stored, the answer sent');
  t.match(stored[0], { waId: written.id, direction: 'incoming', body: '¿Cuál es el horario?', status: 'received' });
  t.match(stored[1], { waId: reply.id, direction: 'outgoing', origin: 'keyword', body: 'Abrimos de 9 a 14 h.' });
  const [received] = await eventsOf(u.userId, 'whatsapp.message.received');
  t.match(received?.data, { chatId: `${from}@s.whatsapp.net`, text: '¿Cuál es el horario?', senderName: 'Lucía Pérez', keywordAnswered: true, live: true, isGroup: false });
  t.equal((await eventsOf(u.userId, 'whatsapp.autoreply.sent')).length, 1);
  const conversations = await u.call('GET', '/whatsapp/conversations');
  t.match(conversations.body.data, [{ name: 'Lucía Pérez', phone: `+${from}`, unread: 1 }]);

  t.equal(await peer.status(reply.id, 'delivered', u.number), 200);
  await until(async () => (await messagesOf(u.userId))[1]?.status === 'delivered', 'delivered');
  t.equal(await peer.status(reply.id, 'read', u.number), 200);
  await until(async () => (await messagesOf(u.userId))[1]?.status === 'read', 'read');
  await peer.status(reply.id, 'delivered', u.number);
  await until(async () => (await webhookRows(u.userId)).length === 0, 'the late receipt processed');
  t.equal((await messagesOf(u.userId))[1]?.status, 'read', 'a late receipt never moves it back');
});

t.test('an unsigned or re-signed webhook is refused and nothing is stored; a repeated one is delivered once', async (t) => {
  const u = await cloudUser();
  const from = customer();
  const { id, body } = peer.customerWebhook({ from, text: 'hola' }, u.number);
  t.equal(await peer.post(body, null), 401, 'unsigned');
  t.equal(await peer.post(body, 'another-apps-secret'), 401, 're-signed with another secret');
  const tampered = body.replace('hola', 'adios');
  const signedOriginal = await h.app.inject({
    method: 'POST',
    url: '/api/whatsapp/cloud/webhook',
    payload: tampered,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signatureOf(body, APP_SECRET) },
  });
  t.equal(signedOriginal.statusCode, 401, 'a body changed after signing');
  t.equal((await webhookRows(u.userId)).length, 0, 'no webhook kept');
  t.equal((await sql`select 1 from whatsapp.cloud_message_ids where wamid = ${id}`).length, 0, 'its id not remembered');
  t.equal((await messagesOf(u.userId)).length, 0, 'no message');

  t.equal(await peer.post(body), 200);
  t.equal(await peer.post(body), 200, 'Meta repeating it is acknowledged');
  await until(async () => (await messagesOf(u.userId)).length === 1, 'stored');
  await until(async () => (await webhookRows(u.userId)).length === 0, 'every webhook processed');
  t.equal((await messagesOf(u.userId)).length, 1, 'stored once');
  t.equal((await eventsOf(u.userId, 'whatsapp.message.received')).length, 1, 'announced once');

  const unknownNumber = peer.customerWebhook({ from, text: 'para otro número' }, { ...u.number, phoneNumberId: '123456789012' });
  t.equal(await peer.post(unknownNumber.body), 200, 'a number nobody connected is acknowledged');
  t.equal((await sql`select 1 from whatsapp.cloud_message_ids where wamid = ${unknownNumber.id}`).length, 0, 'and not kept');
});

t.test('outside the 24-hour window free text is refused and an approved template goes out with its variables', async (t) => {
  const u = await cloudUser();
  const from = customer();
  const jid = `${from}@s.whatsapp.net`;
  const never = await u.call('POST', '/whatsapp/messages', { jid, text: 'Hola' });
  t.equal(never.status, 409, 'a customer who never wrote');
  t.equal(never.body.message, CLOUD_WINDOW_CLOSED);
  await peer.customerWrites({ from, text: 'Quiero cita', timestamp: Math.floor(Date.now() / 1000) - 25 * 3600 }, u.number);
  await until(async () => (await messagesOf(u.userId)).length === 1, 'the old message stored');
  t.match((await u.call('GET', `/whatsapp/cloud/window?jid=${jid}`)).body, { open: false });
  const late = await u.call('POST', '/whatsapp/messages', { handle: `+${from}`, text: 'Hola de nuevo' });
  t.equal(late.status, 409);
  t.equal(late.body.message, CLOUD_WINDOW_CLOSED);
  t.equal((await messagesOf(u.userId)).length, 1, 'nothing queued');

  const templates = await u.call('GET', '/whatsapp/cloud/templates');
  t.equal(templates.status, 200);
  t.same(
    (templates.body.data as { name: string; variables: number }[]).map((x) => [x.name, x.variables]),
    [
      ['recordatorio_cita', 2],
      ['hola', 0],
    ],
    'approved ones only, with their variables',
  );
  const wrongCount = await u.call('POST', '/whatsapp/cloud/templates/send', { jid, name: 'recordatorio_cita', language: 'es', variables: ['Lucía'] });
  t.equal(wrongCount.status, 400);
  t.match(wrongCount.body.message, /necesita 2 variables/);
  const clientMessageId = randomUUID();
  const payload = { handle: `+${from}`, name: 'recordatorio_cita', language: 'es', variables: ['Lucía', 'martes 10:00'], clientMessageId };
  const sent = await u.call('POST', '/whatsapp/cloud/templates/send', payload);
  t.equal(sent.status, 201);
  t.equal(sent.body.message, 'Hola Lucía, te recordamos tu cita del martes 10:00.', 'the inbox shows the text the customer reads');
  const again = await u.call('POST', '/whatsapp/cloud/templates/send', payload);
  t.equal(again.body.id, sent.body.id, 'the same client id is the same message');
  const delivered = await until(() => peer.received(from)[0], 'the template at the customer');
  t.match(delivered, { type: 'template', template: { name: 'recordatorio_cita', language: 'es', variables: ['Lucía', 'martes 10:00'] } });
  await until(async () => (await messagesOf(u.userId)).at(-1)?.status === 'sent', 'sent');
  t.equal(peer.received(from).length, 1, 'sent once');
  const [row] = await sql<{ waId: string }[]>`select wa_id from whatsapp.messages where id = ${sent.body.id as string}`;
  t.equal(row?.waId, delivered.id, "Meta's id kept for its receipts");

  await peer.customerWrites({ from, text: 'Vale, gracias' }, u.number);
  await until(async () => (await u.call('GET', `/whatsapp/cloud/window?jid=${jid}`)).body.open === true, 'the window open again');
  const inside = await u.call('POST', '/whatsapp/messages', { jid, text: 'De nada' });
  t.equal(inside.status, 201);
  await until(() => peer.received(from).some((d) => d.text === 'De nada'), 'free text inside the window');
});

t.test('media both ways: a customer image and document stored as Baileys media, an image sent by upload then id', async (t) => {
  const u = await cloudUser();
  const from = customer();
  await peer.customerWrites({ from, image: { caption: 'La pieza rota' } }, u.number);
  await peer.customerWrites({ from, document: { filename: 'factura.pdf' } }, u.number);
  await peer.customerWrites({ from, audio: {} }, u.number);
  const rows = await until(async () => {
    const found = await messagesOf(u.userId);
    return found.length === 3 ? found : undefined;
  }, 'three media messages');
  t.match(rows[0], { body: 'La pieza rota', media: { kind: 'image', caption: 'La pieza rota' } });
  t.match(rows[1], { body: '', media: { kind: 'document', caption: null } });
  t.match(rows[2], { body: '', media: { kind: 'audio' } });

  const sent = await cloud!.send(u.userId, {
    handle: `+${from}`,
    clientId: randomUUID(),
    content: { kind: 'media', media: { kind: 'image', mimeType: 'image/png', data: new Uint8Array([137, 80, 78, 71]), fileName: 'foto.png', caption: 'Aquí la tenemos', size: 4 } },
  });
  t.match(sent.id, /^wamid\./, "Meta's id");
  t.match(peer.uploads.at(-1), { mimeType: 'image/png', fileName: 'foto.png', size: 4 });
  t.match(peer.received(from).at(-1), { id: sent.id, type: 'image', media: { id: peer.uploads.at(-1)!.id, caption: 'Aquí la tenemos' } });
  const [stored] = await sql<{ media: { kind: string } }[]>`select media from whatsapp.messages where wa_id = ${sent.id}`;
  t.match(stored?.media, { kind: 'image' });
});

t.test('a send Meta refuses fails with its reason; Meta down keeps it queued and it leaves once Meta answers', async (t) => {
  const u = await cloudUser();
  const from = customer();
  await peer.customerWrites({ from, text: 'Hola' }, u.number);
  await until(async () => (await messagesOf(u.userId)).length === 1, 'stored');
  peer.closedWindows.add(from);
  const refused = await cloud!
    .send(u.userId, { handle: `+${from}`, clientId: randomUUID(), content: { kind: 'text', text: 'Meta dice que no' } })
    .then(
      () => undefined,
      (error: unknown) => error as { statusCode: number; message: string },
    );
  t.match(refused, { statusCode: 409, message: CLOUD_WINDOW_CLOSED }, "Meta's 131047 in the owner's words");
  peer.closedWindows.delete(from);
  // Meta is unavailable for the first try only: the send waits first in line and leaves on the next pass.
  peer.unavailableFor = 1;
  const queued = await u.call('POST', '/whatsapp/messages', { jid: `${from}@s.whatsapp.net`, text: 'Cuando vuelva' });
  t.equal(queued.status, 201, 'accepted while Meta is down');
  await until(() => peer.received(from).some((d) => d.text === 'Cuando vuelva'), 'delivered once Meta answers');
  const row = () => sql<{ status: string; attempts: number }[]>`select status, attempts from whatsapp.messages where id = ${queued.body.id as string}`;
  await until(async () => (await row())[0]?.status === 'sent', 'sent');
  t.equal((await row())[0]?.attempts, 1, 'after one failed try');
});

t.test('a workspace whose phone is linked by QR cannot connect a Cloud number', async (t) => {
  const u = user(h.app);
  await u.call('POST', '/whatsapp/connect');
  h.phone.current.scan();
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'linked');
  const number = newNumber();
  const refused = await u.call('POST', '/whatsapp/cloud/connect', { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId, accessToken: number.token });
  t.equal(refused.status, 409);
  t.match(refused.body.message, /Desvincúlalo antes de conectar la API oficial/);
  t.match((await u.call('GET', '/whatsapp/status')).body, { provider: 'baileys', connected: true });
});

t.test('disconnecting with sends queued fails them with the reason in the thread; the one already at Meta is sent', async (t) => {
  const u = await cloudUser();
  const from = customer();
  const jid = `${from}@s.whatsapp.net`;
  await peer.customerWrites({ from, text: 'Hola' }, u.number);
  await until(async () => (await messagesOf(u.userId)).length === 1, 'stored');
  const send = async (text: string) => {
    const sent = await u.call('POST', '/whatsapp/messages', { jid, text });
    t.equal(sent.status, 201, `${text} queued`);
    return sent.body.id as string;
  };

  // The owner disconnects while the first send is at Meta and two wait behind it.
  const behind: string[] = [];
  peer.beforeAnswer = async () => {
    peer.beforeAnswer = undefined;
    behind.push(await send('Segundo'), await send('Tercero'));
    t.equal((await u.call('POST', '/whatsapp/cloud/disconnect')).status, 200, 'disconnected');
  };
  t.teardown(() => {
    peer.beforeAnswer = undefined;
  });
  const first = await send('Primero');
  await until(async () => (await sql<{ status: string }[]>`select status from whatsapp.messages where id = ${first}`)[0]?.status === 'sent', 'the one Meta accepted: sent');
  t.same(
    peer.received(from).map((d) => d.text),
    ['Primero'],
    'nothing left after the disconnect',
  );
  const thread = await u.call('GET', `/whatsapp/messages?jid=${jid}`);
  const byId = new Map((thread.body.data as { id: string; status: string; error?: string | null }[]).map((m) => [m.id, m]));
  t.match(byId.get(first), { status: 'sent' });
  t.notOk(byId.get(first)?.error, 'no reason on the one sent');
  for (const id of behind) t.match(byId.get(id), { status: 'failed', error: CLOUD_DISCONNECTED_UNSENT }, 'failed in the thread, with the reason');
  t.equal((await sql`select 1 from whatsapp.messages where user_id = ${u.userId} and status = 'pending'`).length, 0, 'nothing left pending');
  t.equal((await eventsOf(u.userId, 'whatsapp.message.sent')).length, 1, 'one sent event');
});
