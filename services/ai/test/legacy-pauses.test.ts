// Proves the pauses an owner set before the inbox (kept under WhatsApp JIDs) still hold after the upgrade: moved to their chat keys at start, after a WhatsApp service that failed first, with a newer state never overwritten.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import type { AiChatState } from '@asistente/contracts';
import { createLogger } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { createAiService } from '../src/app.js';
import { ChatStatesRepository } from '../src/domain/chat-states.repository.js';
import { moveLegacyPauses } from '../src/domain/legacy-chat-keys.js';
import { handleOfJid, WhatsAppSibling } from './fixtures/siblings.js';
import { waitFor } from './fixtures/wait.js';

const platform = await createTestPlatform(t);
const sql = platform.db.sql;
const log = createLogger('silent', 'test');
const pause = (userId: string, chatId: string, reason: 'manual' | 'handoff') =>
  sql`insert into ai.chat_states (user_id, chat_id, paused, reason) values (${userId}, ${chatId}, true, ${reason})`;
const keysOf = async (userId: string) =>
  (await sql<{ chatId: string; reason: string }[]>`select chat_id, reason from ai.chat_states where user_id = ${userId} order by chat_id`).map((r) => `${r.chatId} ${r.reason}`);

t.test('each JID becomes its chat key; a state set under the key since stands; a failed round is tried again', async (t) => {
  const states = new ChatStatesRepository(sql);
  const [ana, luis] = [randomUUID(), randomUUID()];
  await pause(ana, '34611000001@s.whatsapp.net', 'manual');
  await pause(ana, '120363040000000000@g.us', 'handoff');
  await pause(ana, '34611000002@s.whatsapp.net', 'manual');
  await sql`insert into ai.chat_states (user_id, chat_id, paused, reason) values (${ana}, 'whatsapp:+34611000002', false, null)`;
  await pause(luis, '34611000001@s.whatsapp.net', 'handoff');

  let asked = 0;
  const failing = async () => {
    asked++;
    throw new Error('WhatsApp unreachable');
  };
  t.equal(await moveLegacyPauses({ states, handlesOf: failing, log }), false, 'the WhatsApp service down: not done');
  t.equal(asked, 1);
  t.same(await keysOf(luis), ['34611000001@s.whatsapp.net handoff'], 'nothing lost meanwhile');

  const handlesOf = async (_caller: unknown, jids: readonly string[]) => new Map(jids.map((jid) => [jid, handleOfJid(jid)]));
  t.equal(await moveLegacyPauses({ states, handlesOf, log }), true);
  t.same(await keysOf(ana), ['whatsapp:+34611000001 manual', 'whatsapp:+34611000002 null', 'whatsapp:group:120363040000000000 handoff'], "each under its key; the state set since the upgrade stands");
  t.same(await keysOf(luis), ['whatsapp:+34611000001 handoff'], 'per workspace');
  t.equal(await moveLegacyPauses({ states, handlesOf, log }), true, 'once done, a round finds nothing');
});

t.test("a paused chat's state says so after the upgrade: the service moves the pauses when it starts", async (t) => {
  const whatsapp = new WhatsAppSibling();
  const userId = randomUUID();
  const jid = '34655000001@s.whatsapp.net';
  await pause(userId, jid, 'manual');
  const app = await buildServicesApp(t, [whatsapp.plugin, createAiService()], platform);
  const { authorization } = signToken(app, userId);
  const state = async () => (await app.inject({ url: `/api/ai/chats/${jid}`, headers: { authorization } })).json<AiChatState>();
  const moved = await waitFor(async () => {
    const now = await state();
    return now.paused && now;
  }, 'the pause under its chat key');
  t.same(moved, { paused: true, pausedUntil: null, reason: 'manual' });
});
