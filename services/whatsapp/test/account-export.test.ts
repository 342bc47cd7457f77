import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createTestPlatform, readAccountExportPart, signToken } from '@asistente/kit/testing';
import { whatsappApp } from './support/harness.js';

const platform = await createTestPlatform(t);
const { app } = await whatsappApp(t, platform);
const sql = platform.db.sql;

async function chat(userId: string, jid: string, name: string, messages: number): Promise<void> {
  const [row] = await sql<{ id: string }[]>`insert into whatsapp.chats (user_id, jid, name) values (${userId}, ${jid}, ${name}) returning id`;
  // Several messages share a second, as WhatsApp stamps them: the keyset's tie-break (seq) keeps them in order.
  await sql`
    insert into whatsapp.messages (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, sent_at, status)
    select ${userId}, ${row!.id}, ${jid} || i, case when i % 2 = 0 then 'outgoing' else 'incoming' end, 'phone', ${jid}, case when i % 2 = 0 then ${jid} else 'me' end,
      'mensaje ' || i, '2026-11-01T00:00:00Z'::timestamptz + (i / 4) * interval '1 second', 'received'
    from generate_series(1, ${messages}) as i`;
}

t.test('the WhatsApp part: one JSON per chat with its messages oldest first, a long chat across pages; never the auth state', async (t) => {
  const owner = signToken(app);
  const other = signToken(app);
  await chat(owner.userId, '34600000001@s.whatsapp.net', 'Larga', 5003);
  await chat(owner.userId, '34600000002@s.whatsapp.net', 'Corta', 1);
  await chat(owner.userId, '120363000000000001@g.us', 'Grupo "Tienda"', 0);
  await chat(other.userId, '34600000009@s.whatsapp.net', 'Ajena', 2);
  await sql`insert into whatsapp.auto_replies (user_id, keyword, keyword_folded, response) values (${owner.userId}, 'Precio', 'precio', 'Desde 10 €')`;
  await sql`insert into whatsapp.auth_state (user_id, key, value_enc) values (${owner.userId}, 'creds', 'v1:k:iv:secreto:tag')`;
  // A member wrote the second one from the app.
  const memberId = randomUUID();
  await sql`update whatsapp.messages set sent_by = ${memberId} where user_id = ${owner.userId} and wa_id = '34600000001@s.whatsapp.net2'`;

  const { files, pages } = await readAccountExportPart(app, '/api/whatsapp/account-export', owner.authorization);
  t.ok(pages >= 2, 'several pages');
  t.same([...files.keys()].sort(), [
    'chats/120363000000000001@g.us.json',
    'chats/34600000001@s.whatsapp.net.json',
    'chats/34600000002@s.whatsapp.net.json',
    'respuestas-automaticas.json',
  ]);
  const long = JSON.parse(files.get('chats/34600000001@s.whatsapp.net.json')!.toString('utf8'));
  t.match(long.chat, { id: '34600000001@s.whatsapp.net', name: 'Larga' });
  t.equal(long.messages.length, 5003);
  t.same(long.messages.slice(0, 3).map((m: { message: string }) => m.message), ['mensaje 1', 'mensaje 2', 'mensaje 3'], 'oldest first');
  t.same(long.messages.map((m: { message: string }) => m.message), Array.from({ length: 5003 }, (_, i) => `mensaje ${i + 1}`), 'each once, in order');
  t.match(long.messages[1], { type: 'outgoing', from: 'me', to: '34600000001@s.whatsapp.net', sentBy: memberId }, 'with the member who sent it');
  t.equal(long.messages[0].sentBy, null, 'a customer\'s names no one');
  t.same(JSON.parse(files.get('chats/120363000000000001@g.us.json')!.toString('utf8')).messages, [], 'a chat without messages is still there');
  t.match(JSON.parse(files.get('respuestas-automaticas.json')!.toString('utf8')), [{ keyword: 'Precio', response: 'Desde 10 €', active: true }]);
  const everything = [...files.values()].join('\n');
  t.notOk(everything.includes('Ajena'), 'another user\'s chat is not there');
  t.notOk(everything.includes('v1:'), 'no auth state');
});
