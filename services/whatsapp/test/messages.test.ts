import { randomUUID } from 'node:crypto';
import t from 'tap';
import { proto } from '@whiskeysockets/baileys';
import { createTestPlatform } from '@asistente/kit/testing';
import { waMessage } from './support/fake-socket.js';
import { linkedUser, until, user, whatsappApp } from './support/harness.js';

const platform = await createTestPlatform(t);
const sql = platform.db.sql;

const ANA_PN = '34611222333@s.whatsapp.net';
const ANA_LID = '98765432101234@lid';
const now = () => Math.floor(Date.now() / 1000);

// The messages' own events: linking the account also writes a line of the owner's security log there.
const outboxOf = (userId: string) =>
  sql<{ type: string; data: Record<string, unknown> }[]>`
    select type, data from whatsapp.outbox where user_id = ${userId} and type like 'whatsapp.%' order by occurred_at, id`;

t.test('inbound: @lid and phone forms land in one conversation, stored once, in order, with their events', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  const socket = u.socket();
  const t0 = now() - 60;
  // First from the @lid alone, then with the phone beside it, then from the phone; the last two arrive out of order.
  socket.notify([waMessage({ id: 'A1', remoteJid: ANA_LID, text: 'Hola', at: t0, pushName: 'Ana López' })]);
  socket.notify([
    waMessage({ id: 'A3', remoteJid: ANA_PN, text: '¿Tenéis precio?', at: t0 + 20 }),
    waMessage({ id: 'A2', remoteJid: ANA_LID, remoteJidAlt: ANA_PN, text: 'Soy Ana', at: t0 + 10 }),
  ]);
  // Duplicates and replays change nothing; reactions, protocol messages and status broadcasts are not messages.
  socket.notify([waMessage({ id: 'A1', remoteJid: ANA_LID, text: 'Hola', at: t0 })]);
  socket.notify([
    waMessage({ remoteJid: ANA_PN, message: { reactionMessage: { key: { id: 'A1' }, text: '👍' } } }),
    waMessage({ remoteJid: ANA_PN, message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } } }),
    waMessage({ remoteJid: 'status@broadcast', participant: ANA_PN, text: 'mi estado' }),
    waMessage({ remoteJid: ANA_PN, stub: proto.WebMessageInfo.StubType.CIPHERTEXT }),
  ]);
  // A caption and a media-only message (metadata only).
  socket.notify([
    waMessage({ id: 'A4', remoteJid: ANA_PN, at: t0 + 30, message: { imageMessage: { caption: 'Este modelo', fileLength: 20480, mimetype: 'image/jpeg' } } }),
    waMessage({ id: 'A5', remoteJid: ANA_PN, at: t0 + 40, message: { documentMessage: { fileLength: 999, fileName: 'pedido.pdf' } } }),
  ]);
  await until(async () => {
    await u.idle();
    return (await u.call('GET', '/whatsapp/conversations')).body.data?.length === 1;
  }, 'one conversation');

  const list = await u.call('GET', '/whatsapp/conversations');
  t.same(list.body.pagination, { total: 1, page: 1, limit: 10 });
  t.match(list.body.data, [{ id: ANA_PN, name: 'Ana López', phone: '+34611222333', isGroup: false, lastMessage: { text: 'document', direction: 'incoming' }, unread: 5 }]);

  const page = await u.call('GET', `/whatsapp/messages?jid=${encodeURIComponent(ANA_LID)}&limit=30`);
  t.same(page.body.pagination, { total: 5, page: 1, limit: 30 }, 'the @lid finds the same chat');
  t.same((page.body.data as { message: string }[]).map((m) => m.message), ['', 'Este modelo', '¿Tenéis precio?', 'Soy Ana', 'Hola'], 'newest first, in timestamp order');
  t.match(page.body.data![1], { type: 'incoming', status: 'received', origin: 'contact', media: { kind: 'image', size: 20480, caption: 'Este modelo' } });
  t.equal((await u.call('GET', '/whatsapp/conversations')).body.data![0] && ((await u.call('GET', '/whatsapp/conversations')).body.data![0] as { unread: number }).unread, 0, 'opening it marked it read');
  const byPhone = await u.call('GET', '/whatsapp/messages?phoneNumber=611%20222%20333&limit=2&page=2');
  t.same((byPhone.body.data as { message: string }[]).map((m) => m.message), ['¿Tenéis precio?', 'Soy Ana'], 'page 2 is older; a typed number finds it');

  const events = await outboxOf(u.userId);
  t.equal(events.filter((e) => e.type === 'whatsapp.message.received').length, 5, 'one event per stored message');
  t.match(events[0]?.data, { keywordAnswered: false, isGroup: false, live: true });
  t.ok([ANA_LID, ANA_PN].includes(events[0]?.data.chatId as string), 'the JID known when its batch was stored');
  t.match(events.at(-1)?.data, { chatId: ANA_PN }, 'the phone JID once known');
  t.equal((await u.call('GET', '/whatsapp/health-panel')).body.decryptFailures, 1, 'the undecryptable stub is counted');
});

t.test('history sync and appends are stored but not live; the owner writing from the phone is origin phone', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  const socket = u.socket();
  const t0 = now() - 3600;
  socket.ev.emit('messaging-history.set', {
    chats: [],
    contacts: [{ id: ANA_PN, lid: ANA_LID, name: 'Ana López' }],
    messages: [
      waMessage({ id: 'H1', remoteJid: ANA_PN, text: 'viejo', at: t0 }),
      waMessage({ id: 'H2', remoteJid: ANA_PN, fromMe: true, text: 'respuesta vieja', at: t0 + 5 }),
    ],
    isLatest: true,
    lidPnMappings: [{ lid: ANA_LID, pn: ANA_PN }],
  });
  socket.ev.emit('messages.upsert', { messages: [waMessage({ id: 'P1', remoteJid: ANA_LID, remoteJidAlt: ANA_PN, fromMe: true, text: 'desde el móvil' })], type: 'append' });
  await until(async () => {
    await u.idle();
    return (await outboxOf(u.userId)).length === 3;
  }, 'three events');
  const events = await outboxOf(u.userId);
  t.match(events.find((e) => e.type === 'whatsapp.message.received')?.data, { live: false });
  t.equal(events.filter((e) => e.type === 'whatsapp.message.sent' && e.data.origin === 'phone').length, 2);
  const list = await u.call('GET', '/whatsapp/conversations');
  t.match(list.body.data, [{ id: ANA_PN, unread: 0, lastMessage: { text: 'desde el móvil', direction: 'outgoing' } }], 'history is not unread');
  const messages = await u.call('GET', `/whatsapp/messages?jid=${ANA_PN}`);
  t.match(messages.body.data![0], { type: 'outgoing', origin: 'phone', status: 'sent' });
});

t.test('sending: stored first as pending, delivered in order by the owner, statuses move forward', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  const bad = [
    [{ jid: ANA_PN, type: 'text', text: '   ' }, 'Escribe un mensaje'],
    [{ jid: ANA_PN, type: 'text', text: 'x'.repeat(4097) }, 'El mensaje admite como máximo 4096 caracteres'],
    [{ phoneNumber: '12', message: 'hola' }, 'Número de teléfono inválido'],
    [{ jid: 'nadie', type: 'text', text: 'hola' }, 'Destinatario inválido'],
    [{ jid: ANA_PN, type: 'text', text: 'ho\u0000la' }, 'El mensaje contiene caracteres no válidos'],
  ] as const;
  for (const [payload, message] of bad) {
    const response = await u.call('POST', '/whatsapp/messages', payload);
    t.equal(response.status, 400, message);
    t.equal(response.body.message, message);
  }
  t.equal((await sql`select count(*)::int as n from whatsapp.messages where user_id = ${u.userId}`)[0]?.n, 0, 'nothing written');

  const first = await u.call('POST', '/whatsapp/messages', { jid: ANA_PN, type: 'text', text: 'Uno' });
  t.equal(first.status, 201);
  t.match(first.body, { type: 'outgoing', status: 'pending', origin: 'app', message: 'Uno', chatId: ANA_PN });
  const second = await u.call('POST', '/whatsapp/messages', { phoneNumber: '+34 611 22 23 33', message: 'Dos', origin: 'ai' });
  t.match(second.body, { status: 'pending', origin: 'ai', chatId: ANA_PN }, 'the spec form and the assistant origin');
  await until(() => u.socket().sent.length === 2, 'both delivered');
  t.same(u.socket().sent.map((s) => s.text), ['Uno', 'Dos'], 'in the order stored');
  await until(async () => {
    const page = await u.call('GET', `/whatsapp/messages?jid=${ANA_PN}`);
    return (page.body.data as { status: string }[]).every((m) => m.status === 'sent');
  }, 'statuses sent');
  {
    const ids = u.socket().sent.map((s) => s.messageId!);
    u.socket().ev.emit('messages.update', [{ key: { remoteJid: ANA_PN, fromMe: true, id: ids[0]! }, update: { status: proto.WebMessageInfo.Status.READ } }]);
    u.socket().ev.emit('messages.update', [{ key: { remoteJid: ANA_PN, fromMe: true, id: ids[0]! }, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } }]);
    await u.idle();
    const page = await u.call('GET', `/whatsapp/messages?jid=${ANA_PN}`);
    t.same((page.body.data as { status: string }[]).map((m) => m.status), ['sent', 'read'], 'a late delivered never undoes read');
  }
  const events = await outboxOf(u.userId);
  const sent = events.filter((e) => e.type === 'whatsapp.message.sent');
  t.same(sent.map((e) => [e.data.origin, e.data.chatId]).sort(), [['ai', ANA_PN], ['app', ANA_PN]]);
  t.match(events.filter((e) => e.type === 'whatsapp.autoreply.sent'), [{ data: { kind: 'ai', chatId: ANA_PN } }]);
});

t.test('a send accepted while the socket is down is delivered on reconnect, once', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  await u.call('POST', '/whatsapp/disconnect');
  const queued = await u.call('POST', '/whatsapp/messages', { jid: ANA_PN, type: 'text', text: 'Mientras tanto' });
  t.equal(queued.status, 201, 'linked but down: accepted');
  t.equal((await u.call('GET', '/whatsapp/health-panel')).body.pendingMessages, 1);
  await u.call('POST', '/whatsapp/connect');
  await until(() => u.socket().sent.length === 1, 'delivered after reconnect');
  // A transient refusal while open is retried, never duplicated.
  u.socket().failSends = 1;
  await u.call('POST', '/whatsapp/messages', { jid: ANA_PN, type: 'text', text: 'Reintento' });
  await until(() => u.socket().sent.length === 2, 'retried on the next tick');
  t.same(u.socket().sent.map((s) => s.text), ['Mientras tanto', 'Reintento']);
  t.equal(new Set(u.socket().sent.map((s) => s.messageId)).size, 2);
});

t.test("a send repeated under one clientMessageId is one message; the assistant reads messages back by id", async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  const payload = { jid: ANA_PN, type: 'text', text: 'Abrimos a las 9.', origin: 'ai', clientMessageId: randomUUID() };
  // Two replicas answering the same burst at once, then one of them again once it went out.
  const [first, again] = await Promise.all([u.call('POST', '/whatsapp/messages', payload), u.call('POST', '/whatsapp/messages', payload)]);
  t.equal(first.status, 201);
  t.equal(again.status, 201);
  t.equal(again.body.id, first.body.id, 'both answered with the one message queued');
  await until(() => u.socket().sent.length === 1, 'delivered');
  // The socket took it a moment before the drain records it sent: wait for that state, not for the socket's.
  const queued = String(first.body.id);
  await until(async () => (await sql<{ status: string }[]>`select status from whatsapp.messages where id = ${queued}`)[0]?.status === 'sent', 'recorded sent');
  const later = await u.call('POST', '/whatsapp/messages', payload);
  t.match(later.body, { id: first.body.id, status: 'sent' });
  t.equal((await sql`select count(*)::int as n from whatsapp.messages where user_id = ${u.userId}`)[0]?.n, 1, 'one row, so one send');
  const bad = await u.call('POST', '/whatsapp/messages', { ...payload, clientMessageId: 'otra-vez' });
  t.equal(bad.status, 400);
  t.equal(bad.body.message, 'Identificador inválido');

  u.socket().notify([waMessage({ id: 'B1', remoteJid: ANA_PN, text: 'Gracias', at: now() })]);
  await until(async () => {
    await u.idle();
    return (await sql`select count(*)::int as n from whatsapp.messages where user_id = ${u.userId}`)[0]?.n === 2;
  }, 'the customer line stored');
  const incoming = (await sql<{ id: string }[]>`select id from whatsapp.messages where user_id = ${u.userId} and direction = 'incoming'`)[0]!.id;
  const read = await u.call('GET', `/whatsapp/messages/by-id?ids=${incoming},${first.body.id as string},${randomUUID()}`);
  t.equal(read.status, 200);
  t.match(read.body.data, [
    { id: first.body.id, type: 'outgoing', message: 'Abrimos a las 9.', chatId: ANA_PN },
    { id: incoming, type: 'incoming', message: 'Gracias', origin: 'contact' },
  ], 'in storage order; an unknown id is left out');
  t.equal(read.body.data?.length, 2);
  t.match((await u.call('GET', '/whatsapp/conversations')).body.data, [{ unread: 1 }], 'reading by id marks nothing read');
  const stranger = user(h.app);
  t.same((await stranger.call('GET', `/whatsapp/messages/by-id?ids=${incoming}`)).body, { data: [] }, "another user's message is not found");
  const wrong = await u.call('GET', '/whatsapp/messages/by-id?ids=1,2');
  t.equal(wrong.status, 400);
  t.equal(wrong.body.message, 'Identificador inválido');
});

t.test('handles: by-id names each chat without a JID; a send by handle reaches that chat; a malformed one writes nothing; JIDs are named by handle', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  const GROUP = '120363040000000000@g.us';
  const BEA_PN = '34622333444@s.whatsapp.net';
  const CARLOS_PN = '5215512345678@s.whatsapp.net';
  const HIDDEN_LID = '11122233344455@lid';
  const t0 = now() - 60;
  u.socket().notify([
    waMessage({ id: 'N1', remoteJid: ANA_PN, text: 'Hola', pushName: 'Ana López', at: t0 }),
    // A member's name is not the group's: the group has none.
    waMessage({ id: 'N2', remoteJid: GROUP, participant: BEA_PN, pushName: 'Bea', text: '¿Quedamos?', at: t0 + 1 }),
    waMessage({ id: 'N3', remoteJid: BEA_PN, text: 'Sin nombre', at: t0 + 2 }),
    waMessage({ id: 'N4', remoteJid: CARLOS_PN, pushName: 'Carlos', text: 'Desde México', at: t0 + 3 }),
    waMessage({ id: 'N5', remoteJid: HIDDEN_LID, text: 'Número oculto', at: t0 + 4 }),
  ]);
  const counts = async () =>
    (await sql<{ messages: number; chats: number; events: number }[]>`
      select (select count(*)::int from whatsapp.messages where user_id = ${u.userId}) as messages,
             (select count(*)::int from whatsapp.chats where user_id = ${u.userId}) as chats,
             (select count(*)::int from whatsapp.outbox where user_id = ${u.userId}) as events`)[0]!;
  await until(async () => {
    await u.idle();
    return (await counts()).messages === 5;
  }, 'five messages stored');
  const ids = (await sql<{ id: string }[]>`select id from whatsapp.messages where user_id = ${u.userId}`).map((r) => r.id);
  const read = await u.call('GET', `/whatsapp/messages/by-id?ids=${ids.join(',')}`);
  t.equal(read.status, 200);
  const data = read.body.data as { message: string; chatId: string; handle: string; chatName: string | null }[];
  t.same(
    Object.fromEntries(data.map((m) => [m.message, [m.handle, m.chatName]])),
    {
      Hola: ['+34611222333', 'Ana López'],
      '¿Quedamos?': ['group:120363040000000000', null],
      'Sin nombre': ['+34622333444', null],
      'Desde México': ['+525512345678', 'Carlos'],
      'Número oculto': ['lid:11122233344455', null],
    },
    "a person's number in E.164 (México's without WhatsApp's 1), a group's id, a hidden number's @lid; the name when known",
  );
  t.match(data.find((m) => m.message === 'Hola'), { chatId: ANA_PN, type: 'incoming', origin: 'contact', status: 'received' }, 'the message itself as before');

  const before = await counts();
  const bad = [
    [{ handle: '34611222333', text: 'hola' }, 'Destinatario inválido'],
    [{ handle: '+12', text: 'hola' }, 'Destinatario inválido'],
    [{ handle: 'group:', text: 'hola' }, 'Destinatario inválido'],
    [{ handle: `group:${GROUP}`, text: 'hola' }, 'Destinatario inválido'],
    [{ handle: GROUP, text: 'hola' }, 'Destinatario inválido'],
    [{ handle: 'bot:13135550002', text: 'hola' }, 'Destinatario inválido'],
    [{ handle: '', text: 'hola' }, 'Destinatario inválido'],
    [{ handle: '+34611222333', jid: ANA_PN, text: 'hola' }, 'Indica un solo destinatario'],
    [{ handle: '+34611222333', phoneNumber: '611222333', text: 'hola' }, 'Indica un solo destinatario'],
  ] as const;
  for (const [payload, message] of bad) {
    const response = await u.call('POST', '/whatsapp/messages', payload);
    t.equal(response.status, 400, `${JSON.stringify(payload)}: ${message}`);
    t.equal(response.body.message, message);
  }
  t.same(await counts(), before, 'nothing written: no message, no chat, no event');

  // Every handle by-id gave out reaches the chat its message is in, whatever kind of chat.
  for (const m of data) {
    const sent = await u.call('POST', '/whatsapp/messages', { handle: m.handle, text: `Respuesta a «${m.message}»` });
    t.equal(sent.status, 201, m.handle);
    t.match(sent.body, { chatId: m.chatId, type: 'outgoing', status: 'pending', origin: 'app' }, `${m.handle} is ${m.chatId}`);
  }
  // A number with no chat yet sends as a typed one does.
  const fresh = await u.call('POST', '/whatsapp/messages', { handle: '+34633444555', message: 'Primera vez', origin: 'ai' });
  t.match(fresh.body, { chatId: '34633444555@s.whatsapp.net', origin: 'ai' });
  await until(() => u.socket().sent.length === 6, 'all six delivered');
  t.same(
    u.socket().sent.map((s) => s.jid),
    [...data.map((m) => m.chatId), '34633444555@s.whatsapp.net'],
    'each to the JID of its chat',
  );
  t.equal((await counts()).chats, before.chats + 1, 'no chat opened twice: only the new number is new');

  // The hidden number becomes known: its chat's handle is the number now, and the lid: one still reaches it.
  const HIDDEN_PN = '34644555666@s.whatsapp.net';
  u.socket().notify([waMessage({ id: 'N6', remoteJid: HIDDEN_LID, remoteJidAlt: HIDDEN_PN, text: 'Ya me ves', at: now() })]);
  const known = await until(async () => {
    await u.idle();
    return (await sql<{ id: string }[]>`select id from whatsapp.messages where user_id = ${u.userId} and wa_id = 'N6'`)[0]?.id;
  }, 'the message with the number stored');
  t.match((await u.call('GET', `/whatsapp/messages/by-id?ids=${known}`)).body.data, [{ handle: '+34644555666', chatId: HIDDEN_PN }]);
  const again = await u.call('POST', '/whatsapp/messages', { handle: 'lid:11122233344455', text: 'Sigo aquí' });
  t.match(again.body, { chatId: HIDDEN_PN });

  // JIDs a caller kept from before handles (the assistant's old pauses): each one's handle, stored chat or not.
  const handles = await u.call('GET', `/whatsapp/handles?jids=${[ANA_PN, GROUP, CARLOS_PN, HIDDEN_LID, '34600000009@s.whatsapp.net'].join(',')}`);
  t.same(handles.body, {
    handles: {
      [ANA_PN]: '+34611222333',
      [GROUP]: 'group:120363040000000000',
      [CARLOS_PN]: '+525512345678',
      [HIDDEN_LID]: '+34644555666',
      '34600000009@s.whatsapp.net': '+34600000009',
    },
  }, "the hidden number's lid names its known number now; a JID with no chat, its own");
  t.equal((await u.call('GET', '/whatsapp/handles?jids=ana')).body.message, 'Identificador de chat de WhatsApp inválido');
});

t.test('never linked: 409', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = user(h.app);
  const response = await u.call('POST', '/whatsapp/messages', { jid: ANA_PN, type: 'text', text: 'hola' });
  t.equal(response.status, 409);
  t.equal(response.body.message, 'WhatsApp no está conectado');
});

t.test('auto-replies: validation, uniqueness without case or accents, update, delete, another user 404', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = user(h.app);
  for (const payload of [{ keyword: ' ', response: 'x' }, { keyword: 'precio', response: '  ' }, {}, { keyword: 'precio' }]) {
    const response = await u.call('POST', '/whatsapp/auto-replies', payload);
    t.equal(response.status, 400);
    t.equal(response.body.message, 'Completa palabra clave y respuesta');
  }
  const created = await u.call('POST', '/whatsapp/auto-replies', { keyword: '  Menú ', response: ' Te envío la carta ', isActive: false });
  t.equal(created.status, 201);
  t.match(created.body, { keyword: 'Menú', response: 'Te envío la carta', active: false });
  const dup = await u.call('POST', '/whatsapp/auto-replies', { keyword: 'MENU', response: 'otra', active: true });
  t.equal(dup.status, 409);
  t.equal(dup.body.message, 'Ya existe una respuesta con esa palabra clave');
  const id = created.body.id as string;
  t.match((await u.call('PATCH', `/whatsapp/auto-replies/${id}`, { active: true })).body, { active: true, keyword: 'Menú' });
  t.match((await u.call('GET', '/whatsapp/auto-replies')).body.data, [{ id, active: true }]);
  const other = user(h.app);
  t.equal((await other.call('PATCH', `/whatsapp/auto-replies/${id}`, { active: false })).status, 404);
  t.equal((await other.call('DELETE', `/whatsapp/auto-replies/${id}`)).status, 404);
  t.equal((await u.call('DELETE', `/whatsapp/auto-replies/${id}`)).status, 204);
  t.same((await u.call('GET', '/whatsapp/auto-replies')).body.data, []);
});

t.test('automatic answers are paced: never two closer than the gap on one account, the owner\'s own messages in order', async (t) => {
  const GAP = 300;
  const h = await whatsappApp(t, platform, { pacing: { automatedGapMs: GAP } });
  const u = await linkedUser(h);
  await u.call('POST', '/whatsapp/auto-replies', { keyword: 'horario', response: 'De 9 a 18 h' });
  const socket = u.socket();
  const chats = ['34600000101', '34600000102', '34600000103'].map((digits) => `${digits}@s.whatsapp.net`);
  socket.notify(chats.map((jid) => waMessage({ remoteJid: jid, text: '¿Qué horario tenéis?' })));
  await until(() => socket.sent.length >= 1, 'the first answer');
  const mine = await u.call('POST', '/whatsapp/messages', { jid: ANA_PN, type: 'text', text: 'Te escribo yo' });
  t.equal(mine.status, 201);
  await until(() => socket.sent.length === 4, 'three answers and the owner\'s message', 20_000);
  t.same(
    socket.sent.map((s) => s.jid),
    [...chats, ANA_PN],
    'in the order they were stored',
  );
  const answers = socket.sentAt.slice(0, 3);
  const gaps = answers.slice(1).map((at, i) => at - answers[i]!);
  t.ok(gaps.every((gap) => gap >= GAP), `answers ${gaps.join(' and ')} ms apart (gap ${GAP} ms)`);
});

t.test('keyword answers: whole words, longest wins, one per message, never groups or own, loop guard', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  await u.call('POST', '/whatsapp/auto-replies', { keyword: 'precio', response: 'Desde 10 €' });
  await u.call('POST', '/whatsapp/auto-replies', { keyword: 'precio envío', response: 'Envío gratis desde 30 €' });
  await u.call('POST', '/whatsapp/auto-replies', { keyword: 'hola', response: '¡Hola! ¿En qué te ayudo?', active: false });
  const socket = u.socket();
  socket.notify([waMessage({ remoteJid: ANA_PN, text: '¿Cuál es el PRECIO ENVIO a Madrid?' })]);
  await until(() => socket.sent.length === 1, 'answered');
  t.same(socket.sent[0], { jid: ANA_PN, text: 'Envío gratis desde 30 €', messageId: socket.sent[0]!.messageId }, 'longest keyword, accent-insensitive');
  socket.notify([waMessage({ remoteJid: ANA_PN, text: 'precio envío otra vez' })]);
  socket.notify([waMessage({ remoteJid: ANA_PN, text: 'preciosa tienda' })]);
  socket.notify([waMessage({ remoteJid: '120363040000000000@g.us', participant: ANA_PN, text: 'precio' })]);
  socket.notify([waMessage({ remoteJid: ANA_PN, fromMe: true, text: 'precio' })]);
  socket.notify([waMessage({ remoteJid: ANA_PN, text: 'hola' })]);
  const bob = '34622333444@s.whatsapp.net';
  socket.notify([waMessage({ remoteJid: bob, text: 'el precio?' })]);
  await until(() => socket.sent.length === 2, 'answered bob');
  await u.idle();
  t.same(socket.sent.map((s) => [s.jid, s.text]), [[ANA_PN, 'Envío gratis desde 30 €'], [bob, 'Desde 10 €']], 'loop guard, partial word, group, own and inactive rules do not answer');
  const events = await outboxOf(u.userId);
  const received = events.filter((e) => e.type === 'whatsapp.message.received');
  t.equal(received.filter((e) => e.data.keywordAnswered).length, 2, 'the answered messages say so');
  t.match(received.find((e) => e.data.isGroup)?.data, { keywordAnswered: false, isGroup: true });
  await until(async () => (await outboxOf(u.userId)).filter((e) => e.type === 'whatsapp.autoreply.sent').length === 2, 'autoreply events');
  const page = await u.call('GET', `/whatsapp/messages?jid=${ANA_PN}&limit=1&page=1`);
  t.ok(page.body.data, 'history readable');
  const stats = await u.call('GET', '/whatsapp/stats');
  t.same(stats.body, { sent: 3, received: 6, contacts: 3, autoReplies: 2 });
});

t.test("who sent it: a member's send names them on its sent event; a keyword answer and the assistant name no one", async (t) => {
  // No lease tick for the test's length: a refused answer waits, pending, for the member's send to deliver it.
  const h = await whatsappApp(t, platform, { lease: { ttlMs: 120_000, tickMs: 60_000, connectWaitMs: 5_000 } });
  const u = await linkedUser(h);
  await u.call('POST', '/whatsapp/auto-replies', { keyword: 'horario', response: 'De 9 a 18 h' });
  const memberId = randomUUID();
  h.app.revocations.vouchForTestUser(memberId);
  const member = `Bearer ${h.app.jwt.sign({ sub: memberId, wid: u.userId, role: 'agent', jti: randomUUID(), ims: Date.now() })}`;
  const socket = u.socket();

  // WhatsApp refuses the rule's answer once: it stays first in line, so the run the member's send starts delivers it too.
  socket.failSends = 1;
  socket.notify([waMessage({ remoteJid: ANA_PN, text: '¿Qué horario tenéis?' })]);
  await until(async () => {
    await u.idle();
    return (await sql`select 1 from whatsapp.messages where user_id = ${u.userId} and origin = 'keyword' and attempts = 1 and status = 'pending'`).length === 1;
  }, 'the answer refused once, still pending');
  const sent = await h.app.inject({
    method: 'POST',
    url: '/api/whatsapp/messages',
    headers: { authorization: member },
    payload: { jid: ANA_PN, type: 'text', text: 'Te llamo yo' },
  });
  t.equal(sent.statusCode, 201, 'an agent may send');
  // The assistant answers under the workspace's own id, as this owner's token does: still no member.
  t.equal((await u.call('POST', '/whatsapp/messages', { jid: ANA_PN, type: 'text', text: 'Abrimos a las 9.', origin: 'ai' })).status, 201);
  await until(async () => {
    await u.idle();
    return (await sql`select 1 from whatsapp.messages where user_id = ${u.userId} and status = 'pending'`).length === 0 && socket.sent.length === 3;
  }, 'all three delivered');
  t.same(socket.sent.map((s) => s.text), ['De 9 a 18 h', 'Te llamo yo', 'Abrimos a las 9.'], 'in the order stored');

  const rows = await sql<{ type: string; origin: string; actorId: string | null }[]>`
    select type, coalesce(data->>'origin', data->>'kind') as origin, actor_id from whatsapp.outbox
    where user_id = ${u.userId} and type in ('whatsapp.message.sent', 'whatsapp.autoreply.sent') order by seq`;
  t.same(
    rows.map((r) => [r.type, r.origin, r.actorId]),
    [
      ['whatsapp.message.sent', 'keyword', null],
      ['whatsapp.autoreply.sent', 'keyword', null],
      ['whatsapp.message.sent', 'app', memberId],
      ['whatsapp.message.sent', 'ai', null],
      ['whatsapp.autoreply.sent', 'ai', null],
    ],
    "the member's send names them, though its event was written outside their request; the rule's, delivered by that same run, and the assistant's name no one",
  );
  t.same(
    (await sql<{ body: string; sentBy: string | null }[]>`select body, sent_by from whatsapp.messages where user_id = ${u.userId} and direction = 'outgoing' order by seq`).map((m) => [m.body, m.sentBy]),
    [['De 9 a 18 h', null], ['Te llamo yo', memberId], ['Abrimos a las 9.', null]],
    'kept with each message',
  );
});

t.test('contact sync: upserted into the contacts service by phone, tagged whatsapp; a second sync creates nothing', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  const existing = await u.call('POST', '/contacts', { firstName: 'Bea', lastName: 'Ruiz', phone: '+34 622 333 444', tags: ['vip'] });
  t.equal(existing.status, 201);
  u.socket().ev.emit('contacts.upsert', [
    { id: ANA_PN, name: 'Ana López' },
    { id: '34622333444@s.whatsapp.net', notify: 'Bea' },
    { id: '5215512345678@s.whatsapp.net', name: 'Carlos' },
    { id: ANA_LID, phoneNumber: ANA_PN },
    { id: '120363040000000000@g.us', name: 'Grupo' },
  ]);
  await until(async () => {
    await u.idle();
    return (await sql`select count(*)::int as n from whatsapp.contacts where user_id = ${u.userId}`)[0]?.n === 3;
  }, 'contacts stored');
  const first = await u.call('POST', '/whatsapp/sync-contacts');
  t.same(first.body, { created: 2, updated: 1 });
  const second = await u.call('POST', '/whatsapp/sync-contacts');
  t.same(second.body, { created: 0, updated: 0 });
  const contacts = (await u.call('GET', '/contacts?limit=100')).body as unknown as {
    contacts: { firstName: string; lastName: string; phone: string; tags: string[]; createdBy: string | null; updatedBy: string | null }[];
  };
  t.match(
    contacts.contacts.map((c) => [c.firstName, c.lastName, c.phone, c.tags]).sort(),
    [['Ana', 'López', '+34611222333', ['whatsapp']], ['Bea', 'Ruiz', '+34 622 333 444', ['vip', 'whatsapp']], ['Carlos', 'WhatsApp', '+525512345678', ['whatsapp']]],
  );
  t.same(
    contacts.contacts.map((c) => [c.firstName, c.createdBy, c.updatedBy]).sort(),
    [['Ana', null, null], ['Bea', u.userId, null], ['Carlos', null, null]],
    'the sync is the workspace\'s own work: it names no member, not even the founder whose id its calls carry',
  );
  t.match((await outboxOf(u.userId)).filter((e) => e.type === 'whatsapp.contacts.synced').map((e) => e.data), [{ created: 2, updated: 1 }, { created: 0, updated: 0 }]);
});
