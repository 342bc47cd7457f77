import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { waMessage } from './support/fake-socket.js';
import { linkedUser, until, whatsappApp, type Harness } from './support/harness.js';

// The inbox reads only the chats' summary columns (last message, direction, unread) kept by the writes:
// these tests check that the summary stays what the messages say, whatever order or repetition they come in.
const platform = await createTestPlatform(t);

const now = () => Math.floor(Date.now() / 1000);
const BEA = '34611000001@s.whatsapp.net';
const CARLOS = '34611000002@s.whatsapp.net';
const DANI = '34611000003@s.whatsapp.net';
const JOSE = '34600123456@s.whatsapp.net';
const JOSE_LID = '11122233344455@lid';
const MARIA = '34622000111@s.whatsapp.net';
const MARIA_LID = '55566677788899@lid';

interface Row {
  id: string;
  name: string;
  phone: string | null;
  lastAt: string | null;
  lastMessage: { text: string; direction: string } | null;
  unread: number;
}

/** A linked user who reads the inbox once everything the phone sent is stored. */
async function inboxUser(h: Harness) {
  const u = await linkedUser(h);
  const inbox = async (query = '') => {
    await u.idle();
    const { body } = await u.call('GET', `/whatsapp/conversations${query}`);
    return body as unknown as { data: Row[]; pagination: { total: number; page: number; limit: number } };
  };
  return { ...u, inbox };
}

t.test('newest activity first, paginated with its total, the summary of the newest message', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await inboxUser(h);
  const t0 = now() - 600;
  u.socket().notify([
    waMessage({ id: 'O1', remoteJid: BEA, text: 'Hola, soy Bea', at: t0, pushName: 'Bea' }),
    waMessage({ id: 'O2', remoteJid: CARLOS, text: 'Buenas', at: t0 + 10, pushName: 'Carlos' }),
    waMessage({ id: 'O3', remoteJid: DANI, text: 'Una pregunta', at: t0 + 20, pushName: 'Dani' }),
  ]);
  await until(async () => (await u.inbox()).pagination.total === 3, 'three chats');
  // Bea writes again: she moves to the top. An older message arriving late does not change Carlos's preview.
  u.socket().notify([waMessage({ id: 'O4', remoteJid: BEA, text: '¿Seguís abiertos?', at: t0 + 30 })]);
  u.socket().notify([waMessage({ id: 'O0', remoteJid: CARLOS, text: 'Mensaje antiguo', at: t0 - 100 })]);
  await until(async () => (await u.inbox()).data[0]?.id === BEA && (await u.inbox()).data[2]?.unread === 2, 'Bea on top');

  const first = await u.inbox();
  t.same(first.data.map((c) => c.id), [BEA, DANI, CARLOS]);
  t.same(first.pagination, { total: 3, page: 1, limit: 10 });
  t.match(first.data[0], { name: 'Bea', phone: '+34611000001', lastAt: new Date((t0 + 30) * 1000).toISOString(), lastMessage: { text: '¿Seguís abiertos?', direction: 'incoming' }, unread: 2 });
  t.match(first.data[2], { lastMessage: { text: 'Buenas', direction: 'incoming' }, unread: 2 }, 'a late older message counts unread but is not the preview');

  const second = await u.inbox('?page=2&limit=2');
  t.same(second.data.map((c) => c.id), [CARLOS], 'page 2 continues the order');
  t.same(second.pagination, { total: 3, page: 2, limit: 2 });
  const beyond = await u.inbox('?page=9&limit=2');
  t.same(beyond, { data: [], pagination: { total: 3, page: 9, limit: 2 } }, 'past the end: empty page, the total still given');
});

t.test('unread: duplicates and replays count once, opening marks read, an answer becomes the preview', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await inboxUser(h);
  const t0 = now() - 300;
  const burst = [
    waMessage({ id: 'U1', remoteJid: BEA, text: 'uno', at: t0, pushName: 'Bea' }),
    waMessage({ id: 'U2', remoteJid: BEA, text: 'dos', at: t0 + 1 }),
    waMessage({ id: 'U2', remoteJid: BEA, text: 'dos', at: t0 + 1 }),
  ];
  u.socket().notify(burst);
  u.socket().notify(burst);
  u.socket().notify([waMessage({ id: 'U3', remoteJid: BEA, text: 'tres', at: t0 + 2 })]);
  await until(async () => (await u.inbox()).data[0]?.lastMessage?.text === 'tres', 'the third message');
  u.socket().notify([waMessage({ id: 'U1', remoteJid: BEA, text: 'uno', at: t0 })]);
  await u.idle();
  t.match((await u.inbox()).data, [{ id: BEA, unread: 3, lastMessage: { text: 'tres' } }], 'three messages, three unread');

  const opened = await u.call('GET', `/whatsapp/messages?jid=${encodeURIComponent(BEA)}&limit=30`);
  t.equal(opened.body.data?.length, 3);
  t.equal((await u.inbox()).data[0]?.unread, 0, 'opening it marks it read');
  u.socket().notify([waMessage({ id: 'U3', remoteJid: BEA, text: 'tres', at: t0 + 2 })]);
  await u.idle();
  t.equal((await u.inbox()).data[0]?.unread, 0, 'a replay after reading is not unread again');

  const sent = await u.call('POST', '/whatsapp/messages', { jid: BEA, type: 'text', text: 'Sí, hasta las 20 h' });
  t.equal(sent.status, 201);
  t.match((await u.inbox()).data, [{ id: BEA, unread: 0, lastMessage: { text: 'Sí, hasta las 20 h', direction: 'outgoing' } }]);
  u.socket().notify([waMessage({ id: 'U4', remoteJid: BEA, text: 'Gracias', at: now() + 5 })]);
  await until(async () => (await u.inbox()).data[0]?.unread === 1, 'a new message after the answer');
  t.match((await u.inbox()).data[0], { lastMessage: { text: 'Gracias', direction: 'incoming' } });
});

t.test('the @lid and the phone of one person are one conversation; search by name or phone digits', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await inboxUser(h);
  const t0 = now() - 120;
  u.socket().notify([waMessage({ id: 'L1', remoteJid: JOSE_LID, text: 'Hola', at: t0, pushName: 'José Pérez' })]);
  u.socket().notify([waMessage({ id: 'L2', remoteJid: JOSE_LID, remoteJidAlt: JOSE, text: 'Soy José', at: t0 + 1 })]);
  u.socket().notify([waMessage({ id: 'L3', remoteJid: JOSE, text: '¿Precio?', at: t0 + 2 })]);
  u.socket().notify([waMessage({ id: 'L4', remoteJid: BEA, text: 'Hola', at: t0 + 3, pushName: 'Bea_100%' })]);
  await until(async () => (await u.inbox()).pagination.total === 2 && (await u.inbox()).data[1]?.unread === 3, 'two chats');
  t.match((await u.inbox()).data[1], { id: JOSE, name: 'José Pérez', phone: '+34600123456', unread: 3, lastMessage: { text: '¿Precio?' } });

  // Two chats of one person, each with messages, merged when a message names both: the total follows.
  u.socket().notify([waMessage({ id: 'M1', remoteJid: MARIA, text: 'Hola', at: t0 + 4 })]);
  u.socket().notify([waMessage({ id: 'M2', remoteJid: MARIA_LID, text: 'Otra vez', at: t0 + 5 })]);
  await until(async () => (await u.inbox()).pagination.total === 4, 'María twice');
  u.socket().notify([waMessage({ id: 'M3', remoteJid: MARIA_LID, remoteJidAlt: MARIA, text: 'Soy María', at: t0 + 6, pushName: 'María' })]);
  await until(async () => (await u.inbox()).pagination.total === 3, 'merged');
  const merged = await u.inbox();
  t.equal(merged.data.length, 3, 'the total is the number of conversations');
  t.match(merged.data[0], { id: MARIA, unread: 3, lastMessage: { text: 'Soy María' } });
  const found = async (search: string) => (await u.inbox(`?search=${encodeURIComponent(search)}`)).data.map((c) => c.id);
  t.same(await found('jose perez'), [JOSE], 'by name, without case or accents');
  t.same(await found('PÉR'), [JOSE], 'by part of the name');
  t.same(await found('600 12 34'), [JOSE], 'by phone digits written with spaces');
  t.same(await found('+34 600-123-456'), [JOSE], 'by the phone as typed');
  t.same(await found('600123'), [JOSE], 'by digits alone');
  t.same(await found('1000001'), [BEA]);
  t.same(await found('_100%'), [BEA], 'LIKE wildcards are literal');
  t.same(await found('1%'), [], 'a wildcard in the term is no wildcard');
  t.same((await u.inbox('?search=nadie')).pagination, { total: 0, page: 1, limit: 10 });
  t.same((await u.inbox('?search=e&limit=1')).pagination, { total: 2, page: 1, limit: 1 }, 'a short term still searches');
  t.same(await found('maria'), [MARIA]);
});
