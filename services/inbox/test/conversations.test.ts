// The team inbox end to end: assigned conversations from WhatsApp, answers, notes, stale sends, live presence, the assistant pausing and answering through it, retention.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { inboxRoutes, type AssistantAnswerBody, type ConversationExcerptQuery } from '@asistente/contracts';
import { createEvent, createLogger, eraseOlderData, EventValidator, PeriodicJob, ServiceCallError, type RetentionReport } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { waMessage } from '../../whatsapp/test/support/fake-socket.js';
import { ChannelMessagesConsumer } from '../src/consumers/channel-messages.consumer.js';
import { pickAssignee } from '../src/domain/assignment-rule.js';
import type { MessageSource } from '../src/domain/channel.js';
import type { Intake } from '../src/domain/intake.js';
import type { MemberDeparture } from '../src/domain/member-departure.js';
import { mentioned } from '../src/domain/mentions.js';
import { INBOX_RETENTION_STEPS } from '../src/domain/retention.js';
import { createAiService } from '@asistente/ai';
import { OpenAiLanguageModel } from '../../ai/src/adapters/openai.js';
import { DEFAULT_CONFIG } from '../../ai/src/domain/assistant-config.js';
import { ManualBurstClock } from '../../ai/test/fixtures/manual-burst-clock.js';
import { OpenAiPeer } from '../../ai/test/fixtures/openai-peer.js';
import { openLive, teamInbox, until, type Body, type Member } from './support/team-inbox.js';

const platform = await createTestPlatform(t);
const sql = platform.db.sql;

const CUSTOMER = '34611222333@s.whatsapp.net';
const OTHER = '34622333444@s.whatsapp.net';

const conversations = async (m: Member, query = '') => (await m.call('GET', `/conversations${query}`)).body.data ?? [];
const outboxTypes = async (workspaceId: string) =>
  (await sql<{ type: string }[]>`select type from inbox.outbox where user_id = ${workspaceId} order by occurred_at, id`).map((r) => r.type);

t.test('the rule: round-robin takes turns, fewest open picks the least busy, nobody is nobody', async (t) => {
  const [a, b, c] = ['a', 'b', 'c'];
  t.equal(pickAssignee('none', [a, b], null, new Map()), null);
  t.equal(pickAssignee('round_robin', [c, a, b], null, new Map()), a, 'first in a fixed order');
  t.equal(pickAssignee('round_robin', [a, b, c], a, new Map()), b);
  t.equal(pickAssignee('round_robin', [a, b, c], c, new Map()), a, 'wraps');
  t.equal(pickAssignee('round_robin', [a, c], b, new Map()), c, 'the one after a member who left');
  t.equal(pickAssignee('fewest_open', [a, b, c], null, new Map([[a, 2], [b, 0], [c, 1]])), b);
  t.equal(pickAssignee('fewest_open', [a, b, c], a, new Map()), b, 'ties take turns');
  t.equal(pickAssignee('round_robin', [], null, new Map()), null, 'nobody available');
});

t.test('@Nombre names a member by first or full name, accents and case aside, at a word end', async (t) => {
  const members = [
    { userId: 'ana', name: 'Ana López', role: 'agent' as const },
    { userId: 'anabel', name: 'Anabel Ruiz', role: 'agent' as const },
    { userId: 'jose', name: 'José Martín', role: 'admin' as const },
  ];
  t.same(mentioned('@ana mira esto', members), ['ana']);
  t.same(mentioned('hola @Anabel, y @jose.', members), ['anabel', 'jose']);
  t.same(mentioned('@José Martín', members), ['jose']);
  t.same(mentioned('correo ana@ejemplo.es', members), []);
});

t.test('a customer message opens a conversation assigned by round-robin; answers, notes, stale sends, resolve and reopen', async (t) => {
  const team = await teamInbox(t, platform);
  const { owner } = team;
  const luis = await team.member('admin', 'Luis', 'Pérez');
  const marta = await team.member('agent', 'Marta', 'Gil');
  const socket = await team.link();

  const agentSets = await marta.call('PATCH', '/conversations/settings', { assignment: 'round_robin' });
  t.equal(agentSets.status, 403, 'an agent cannot change the rules');
  t.equal(agentSets.body.message, 'No tienes permiso para esta acción');
  t.equal((await owner.call('PATCH', '/conversations/settings', { assignment: 'sometimes' })).body.message, 'Regla de asignación inválida');
  t.same((await owner.call('PATCH', '/conversations/settings', { assignment: 'round_robin' })).body, { assignment: 'round_robin', onlyAssigneeSends: false });
  // The owner is away: the turn goes between Luis and Marta.
  t.same((await owner.call('PUT', '/conversations/availability', { available: false })).body, { available: false });

  socket.notify([waMessage({ remoteJid: CUSTOMER, text: 'Hola, ¿tenéis cita mañana?', pushName: 'Carmen' })]);
  const first = await until(async () => {
    const list = await conversations(marta);
    return list.length === 1 && list[0];
  }, 'the conversation');
  const [expected, next] = [luis.userId, marta.userId].sort();
  t.match(first, { channel: 'whatsapp', handle: '+34611222333', name: 'Carmen', status: 'open', assigneeId: expected, assistantActive: true, unread: 1, lastMessagePreview: 'Hola, ¿tenéis cita mañana?' });
  socket.notify([waMessage({ remoteJid: OTHER, text: 'Buenas' })]);
  await until(async () => (await conversations(owner)).length === 2, 'the second conversation');
  const second = (await conversations(owner, '?q=34622'))[0]!;
  t.equal(second.assigneeId, next, 'the next one in turn');

  const assignee = expected === luis.userId ? luis : marta;
  const colleague = assignee === luis ? marta : luis;
  t.same((await assignee.call('GET', '/conversations/counts')).body, { mine: 1, unassigned: 0, all: 2, unread: 2 });
  t.equal((await conversations(assignee, '?assignee=me')).length, 1);
  t.equal((await conversations(owner, '?assignee=none')).length, 0);
  t.equal((await owner.call('GET', '/conversations?status=closed')).body.message, 'Estado inválido');

  // Both have the thread open; the colleague's screen sees the assignee typing, within a second.
  const live = await openLive(t, team.app, colleague);
  await live.next('ready');
  const typedAt = performance.now();
  const typing = await assignee.call('POST', `/conversations/${first.id}/presence`, { viewing: true, typing: true });
  t.match(typing.body, { conversationId: first.id, viewing: [{ userId: assignee.userId, name: assignee.name }], typing: [{ userId: assignee.userId }] });
  const heard = await live.next('presence', (p) => p.conversationId === first.id);
  const delay = performance.now() - typedAt;
  t.match(heard, { typing: [{ userId: assignee.userId, name: assignee.name }] });
  // A figure, not a verdict: a busy machine must not fail the suite on time.
  t.comment(`"${assignee.name.split(' ')[0]} está escribiendo…" reached the colleague in ${Math.round(delay)} ms`);
  t.equal((await colleague.call('POST', `/conversations/${first.id}/presence`, { viewing: true, typing: 'yes' })).body.message, 'Valor inválido');
  t.match((await colleague.call('POST', `/conversations/${first.id}/presence`, { viewing: true })).body, { viewing: [{}, {}], typing: [{ userId: assignee.userId }] });

  // The colleague opens the thread first (the customer is a contact by now); then the assignee answers.
  const carmen = await owner.call('POST', '/contacts', { firstName: 'Carmen', lastName: 'Ruiz', phone: '+34 611 22 23 33' });
  const seen = await colleague.call('GET', `/conversations/${first.id}`);
  t.same(await live.next('conversation', (c) => c.conversationId === first.id), { conversationId: first.id }, 'read: the others hear it');
  t.match(seen.body, { id: first.id, unread: 0, contactId: carmen.body.id, contact: { id: carmen.body.id, firstName: 'Carmen', lastName: 'Ruiz' }, messages: [{ kind: 'message', direction: 'incoming', author: 'customer', text: 'Hola, ¿tenéis cita mañana?' }] });
  const reply = await assignee.call('POST', `/conversations/${first.id}/messages`, { text: 'Sí, a las 10' }, { 'idempotency-key': 'r-1' });
  t.equal(reply.status, 201);
  t.same(await live.next('conversation', (c) => c.conversationId === first.id), { conversationId: first.id }, 'open screens hear of the answer');
  t.match(reply.body, { kind: 'message', direction: 'outgoing', author: 'member', authorId: assignee.userId, authorName: assignee.name, text: 'Sí, a las 10' });
  const again = await assignee.call('POST', `/conversations/${first.id}/messages`, { text: 'Sí, a las 10' }, { 'idempotency-key': 'r-1' });
  t.equal(again.body.id, reply.body.id, 'the same Idempotency-Key answers the same message');
  await until(() => socket.sent.filter((m) => m.text === 'Sí, a las 10').length === 1 && true, 'the answer left by WhatsApp once');
  t.equal(socket.sent.filter((m) => m.text === 'Sí, a las 10').length, 1);
  t.equal(socket.sent.at(-1)!.jid, CUSTOMER);
  t.equal(((await owner.call('GET', `/conversations/${first.id}`)).body as Body).assistantActive, false, "the assignee's reply pauses the assistant");

  // The colleague answers from what they saw before that reply: refused with what was sent, unless forced.
  const stale = await colleague.call('POST', `/conversations/${first.id}/messages`, { text: 'Mañana a las 12' });
  t.equal(stale.status, 409);
  t.equal(stale.body.code, 'ANSWERED_MEANWHILE');
  t.equal(stale.body.message, `${assignee.name} ya respondió en esta conversación después de tu última lectura`);
  t.match(stale.body.answer, { id: reply.body.id, text: 'Sí, a las 10' });
  t.notOk(socket.sent.some((m) => m.text === 'Mañana a las 12'), 'nothing sent');
  t.equal((await colleague.call('POST', `/conversations/${first.id}/messages`, { text: 'Mañana a las 12', force: true })).status, 201, 'sent anyway with force');

  // A note names the colleague; it never reaches the customer.
  const sentBefore = socket.sent.length;
  const note = await assignee.call('POST', `/conversations/${first.id}/notes`, { text: `@${colleague.name.split(' ')[0]} ojo, es clienta habitual` });
  t.equal(note.status, 201);
  t.match(note.body, { kind: 'note', direction: null, author: 'member', authorName: assignee.name });
  const mentions = await colleague.call('GET', '/conversations/mentions');
  t.match(mentions.body.data, [{ conversationId: first.id, entryId: note.body.id, byName: assignee.name, seen: false }]);
  t.equal((await assignee.call('GET', '/conversations/mentions')).body.data!.length, 0);
  await colleague.call('GET', `/conversations/${first.id}`);
  t.match((await colleague.call('GET', '/conversations/mentions')).body.data, [{ entryId: note.body.id, seen: true }], 'seen once opened');
  t.equal((await colleague.call('POST', `/conversations/${first.id}/notes`, { text: '   ' })).body.message, 'Escribe un mensaje');
  const thread = await owner.call('GET', `/conversations/${first.id}/messages?limit=2`);
  t.match(thread.body, { hasMore: true, data: [{ text: 'Mañana a las 12' }, { kind: 'note' }] });
  t.equal(socket.sent.length, sentBefore, 'the note was not sent');

  // Resolved: the assistant is back; the customer writes again and it reopens with its assignee.
  const resolved = await marta.call('PATCH', `/conversations/${first.id}`, { status: 'resolved' });
  t.match(resolved.body, { status: 'resolved', assistantActive: true });
  socket.notify([waMessage({ remoteJid: CUSTOMER, text: 'Otra pregunta' })]);
  const reopened = await until(async () => {
    const row = (await owner.call('GET', `/conversations/${first.id}`)).body;
    return row.status === 'open' && row;
  }, 'reopened');
  t.equal(reopened.assigneeId, assignee.userId, 'kept its available assignee');

  // Assigning by hand pauses the assistant; an outsider is refused; unassigning is null.
  t.equal((await owner.call('PATCH', `/conversations/${first.id}`, { assigneeId: '00000000-0000-4000-8000-000000000000' })).body.message, 'Esa persona no es miembro del espacio de trabajo');
  t.match((await owner.call('PATCH', `/conversations/${first.id}`, { assigneeId: colleague.userId })).body, { assigneeId: colleague.userId, assistantActive: false });
  t.match((await owner.call('PATCH', `/conversations/${first.id}`, { assigneeId: null, assistantActive: true })).body, { assigneeId: null, assistantActive: true });
  t.equal((await owner.call('PATCH', `/conversations/${first.id}`, {})).body.message, 'Nada que cambiar');

  // Only the assignee answers, when the workspace says so.
  await owner.call('PATCH', '/conversations/settings', { onlyAssigneeSends: true });
  await owner.call('PATCH', `/conversations/${second.id}`, { assigneeId: marta.userId });
  const refused = await luis.call('POST', `/conversations/${second.id}/messages`, { text: 'Hola' });
  t.equal(refused.status, 403);
  t.equal(refused.body.message, 'Solo la persona asignada puede responder en esta conversación');

  const types = await outboxTypes(team.workspaceId);
  for (const type of ['conversation.message.received', 'conversation.message.sent', 'conversation.assigned', 'conversation.status_changed']) t.ok(types.includes(type), type);
  const [byMember] = await sql<{ actorId: string | null }[]>`
    select actor_id from inbox.outbox where user_id = ${team.workspaceId} and type = 'conversation.message.sent' order by occurred_at limit 1`;
  t.equal(byMember!.actorId, assignee.userId, "the member's answer names its author");

  // The members the inbox shows: availability and what each carries.
  const members = (await owner.call('GET', '/conversations/members')).body.data!;
  t.match(members.find((m) => m.userId === team.owner.userId), { available: false, role: 'owner' });
  t.match(members.find((m) => m.userId === marta.userId), { available: true, open: 1, name: 'Marta Gil' });

  // A member removed: their conversations go back to the team.
  t.equal((await owner.call('DELETE', `/workspace/members/${marta.userId}`)).status, 204);
  await until(async () => (await owner.call('GET', `/conversations/${second.id}`)).body.assigneeId === null, 'unassigned after leaving');
});

t.test('another workspace, an unknown id and bad input: 404 and 400, nothing written', async (t) => {
  const one = await teamInbox(t, platform);
  const socket = await one.link();
  socket.notify([waMessage({ remoteJid: CUSTOMER, text: 'Hola' })]);
  const mine = await until(async () => {
    const list = await conversations(one.owner);
    return list.length === 1 && list[0];
  }, 'a conversation');
  const other = await teamInbox(t, platform);
  for (const [method, url, body] of [
    ['GET', `/conversations/${mine.id}`],
    ['GET', `/conversations/${mine.id}/messages`],
    ['POST', `/conversations/${mine.id}/messages`, { text: 'hola' }],
    ['POST', `/conversations/${mine.id}/notes`, { text: 'hola' }],
    ['PATCH', `/conversations/${mine.id}`, { status: 'resolved' }],
  ] as const) {
    const answer = await other.owner.call(method, url, body);
    t.equal(answer.status, 404, `${method} ${url}`);
    t.equal(answer.body.message, 'Conversación no encontrada');
  }
  t.same(await conversations(other.owner), []);
  const before = socket.sent.length;
  const tooLong = await one.owner.call('POST', `/conversations/${mine.id}/messages`, { text: 'x'.repeat(4097) });
  t.equal(tooLong.body.message, 'El mensaje admite como máximo 4096 caracteres');
  t.equal((await one.owner.call('GET', '/conversations/not-an-id')).body.message, 'Identificador inválido');
  t.equal((await one.owner.call('GET', '/conversations?assignee=someone')).body.message, 'Filtro de asignación inválido');
  t.equal(socket.sent.length, before);
  const [entries] = await sql<{ count: number }[]>`select count(*)::int from inbox.entries where conversation_id = ${String(mine.id)}`;
  t.equal(entries!.count, 1, 'only the customer message');
});

t.test('with the assistant: it answers a new customer as itself, keeps silent once the assignee replied, and answers again once resolved', async (t) => {
  const peer = await OpenAiPeer.start();
  t.teardown(() => peer.close());
  const clock = new ManualBurstClock(sql);
  const ai = createAiService({ model: new OpenAiLanguageModel({ baseURL: peer.url, maxRetries: 0, timeoutMs: 5000 }), autoReply: { clock } });
  const team = await teamInbox(t, platform, [ai]);
  const { owner } = team;
  await owner.call('PUT', '/ai/provider/openai/key', { apiKey: 'sk-proj-InboxTeamKey0123456789abcdWXYZ' });
  await owner.call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, autoReply: true, internalSources: [] });
  await owner.call('PATCH', '/conversations/settings', { assignment: 'round_robin' });
  await owner.call('PUT', '/conversations/availability', { available: false });
  const ana = await team.member('agent', 'Ana', 'Ruiz');
  const socket = await team.link();
  const thread = async (id: string) => ((await ana.call('GET', `/conversations/${id}`)).body.messages ?? []) as Body[];

  socket.notify([waMessage({ remoteJid: CUSTOMER, text: 'Hola, ¿abrís el sábado?' })]);
  const conversation = await until(async () => (await conversations(ana))[0], 'the conversation');
  t.equal(conversation.assigneeId, ana.userId, 'round-robin among the available: Ana');
  await until(async () => (await clock.keys()).length === 1, 'the assistant waiting for the customer to finish');
  peer.reply({ text: 'Sí, de 10 a 14.' });
  await clock.quiet();
  await until(async () => (await thread(String(conversation.id))).some((e) => e.author === 'assistant'), "the assistant's answer in the thread");
  t.match((await thread(String(conversation.id))).at(-1), { author: 'assistant', direction: 'outgoing', text: 'Sí, de 10 a 14.', authorId: null });

  t.equal((await ana.call('POST', `/conversations/${conversation.id}/messages`, { text: 'Te confirmo yo: sí, hasta las 14' })).status, 201);
  socket.notify([waMessage({ remoteJid: CUSTOMER, text: '¿Y el domingo?' })]);
  await until(async () => (await thread(String(conversation.id))).some((e) => e.text === '¿Y el domingo?'), 'the new message in the thread');
  await until(async () => (await clock.keys()).length === 1, 'a burst to decide on');
  await clock.quiet();
  t.equal(peer.requests.length, 1, 'the assistant stays silent: Ana answered');

  t.match((await ana.call('PATCH', `/conversations/${conversation.id}`, { status: 'resolved' })).body, { assistantActive: true });
  socket.notify([waMessage({ remoteJid: CUSTOMER, text: 'Una última cosa' })]);
  await until(async () => (await clock.keys()).length === 1, 'a burst after the conversation reopened');
  peer.reply({ text: 'Dime.' });
  await clock.quiet();
  t.equal(peer.requests.length, 2, 'resolved, the assistant answers again');
  t.equal((await ana.call('GET', `/conversations/${conversation.id}`)).body.status, 'open', 'the customer reopened it');
});

t.test("the assistant's own routes: it reads entries by id or the latest, answers as itself, never over a person and never twice; a member cannot", async (t) => {
  const team = await teamInbox(t, platform);
  const { owner, workspaceId } = team;
  const socket = await team.link();
  socket.notify([waMessage({ remoteJid: CUSTOMER, text: 'Hola' }), waMessage({ remoteJid: CUSTOMER, text: '¿Abrís hoy?' })]);
  const conversation = await until(async () => {
    const list = await conversations(owner);
    return list[0]?.lastMessagePreview === '¿Abrís hoy?' && list[0];
  }, 'the conversation');
  const id = String(conversation.id);
  const excerpt = (query: ConversationExcerptQuery) => platform.services.call(inboxRoutes.excerpt, workspaceId, { params: { id }, query });
  const answer = (body: AssistantAnswerBody) => platform.services.call(inboxRoutes.assistantAnswer, workspaceId, { params: { id }, body });

  const latest = await excerpt({ latest: 2 });
  t.same(latest.entries.map((e) => e.text), ['Hola', '¿Abrís hoy?'], 'the latest, oldest first');
  const byId = await excerpt({ ids: `${latest.entries[1]!.id},${randomUUID()}` });
  t.same(byId.entries.map((e) => e.text), ['¿Abrís hoy?'], 'by id; an unknown id left out');
  t.match(byId.conversation, { id, handle: '+34611222333', assistantActive: true });
  t.equal((await owner.call('GET', `/conversations/${id}/excerpt`)).body.message, 'Indica los mensajes por su id (ids) o cuántos de los últimos (latest), no ambos');
  const malformed = await owner.call('GET', `/conversations/${id}/excerpt?ids=${'-'.repeat(36)}`);
  t.match(malformed, { status: 400, body: { message: 'Identificadores inválidos' } }, 'an id that is no uuid never reaches the database');

  const answerId = randomUUID();
  const answered = await answer({ text: 'Sí, hasta las 20:00', answerId });
  t.match(answered, { author: 'assistant', authorId: null });
  await answer({ text: 'Sí, hasta las 20:00', answerId });
  await until(() => socket.sent.length >= 1, 'the answer on the phone');
  t.equal(socket.sent.length, 1, 'the same answerId again sends nothing more');
  t.equal((await owner.call('GET', `/conversations/${id}`)).body.assistantActive, true, "the assistant's answer pauses nothing");

  const member = await owner.call('POST', `/conversations/${id}/assistant-answers`, { text: 'Soy el asistente', answerId: randomUUID() });
  t.equal(member.status, 403, 'a member cannot answer as the assistant');
  t.equal(member.body.message, 'Solo el asistente responde por esta vía');

  t.equal((await owner.call('POST', `/conversations/${id}/messages`, { text: 'Te atiendo yo' })).status, 201);
  const refused = await answer({ text: 'Respuesta tardía', answerId: randomUUID() }).catch((error: unknown) => error);
  t.match(refused, { statusCode: 409, body: { code: 'ASSISTANT_PAUSED', message: 'Una persona del equipo atiende esta conversación: el asistente no responde' } });
  t.equal(socket.sent.length, 2, "only the member's answer went out since");
});

t.test("the owner's WhatsApp retention erases the inbox's old messages and their previews; notes and other workspaces stay", async (t) => {
  const DAY = 24 * 60 * 60 * 1000;
  const NOW = new Date('2030-06-30T02:00:00Z');
  const [ana, luis] = [randomUUID(), randomUUID()];
  await sql`insert into inbox.retention (user_id, days, changed_at) values (${ana}, 30, now())`;
  const seed = async (workspaceId: string) => {
    const id = randomUUID();
    await sql`
      insert into inbox.conversations (id, user_id, channel, handle, last_message_at, last_message_preview)
      values (${id}, ${workspaceId}, 'whatsapp', '+34600000001', ${new Date(NOW.getTime() - 40 * DAY)}, 'Hola')`;
    for (const [kind, days] of [['message', 40], ['message', 35], ['note', 40], ['message', 1]] as const) {
      await sql`
        insert into inbox.entries (id, user_id, conversation_id, kind, direction, author, body, channel_message_id, at)
        values (${randomUUID()}, ${workspaceId}, ${id}, ${kind}, ${kind === 'note' ? null : 'incoming'}, ${kind === 'note' ? 'member' : 'customer'}, 'x',
          ${kind === 'note' ? null : randomUUID()}, ${new Date(NOW.getTime() - days * DAY)})`;
    }
    return id;
  };
  const [mine, theirs] = [await seed(ana), await seed(luis)];
  const reports: RetentionReport[] = [];
  const job = new PeriodicJob(sql, { name: `test.inbox.retention.${randomUUID()}`, log: createLogger('silent', 'test'), now: () => NOW }, async (run) => {
    reports.push(await eraseOlderData(sql, 'inbox.retention', run, INBOX_RETENTION_STEPS, 1));
  });
  t.equal(await job.runOnce(), 'ran');
  t.same(reports[0]!.erased, { messages: 2, previews: 1 });
  const left = async (id: string) => (await sql<{ kind: string }[]>`select kind from inbox.entries where conversation_id = ${id} order by at`).map((r) => r.kind);
  t.same(await left(mine), ['note', 'message'], 'the note and the recent message stay');
  t.equal((await left(theirs)).length, 4, 'another workspace keeps everything');
  const [preview] = await sql<{ lastMessagePreview: string | null }[]>`select last_message_preview from inbox.conversations where id = ${mine}`;
  t.equal(preview!.lastMessagePreview, null, 'the old preview is gone too');
});

t.test("the consumer skips what the channel cannot read (ids that are not its messages, a refusal) and retries what failed", async (t) => {
  const recorded: string[] = [];
  const consumerWith = (messages: MessageSource['messages']) =>
    new ChannelMessagesConsumer({
      intake: { record: async (_w: string, _c: string, m: { id: string }) => void recorded.push(m.id) } as unknown as Intake,
      whatsapp: { name: 'whatsapp', messages, send: async () => Promise.reject(new Error('not used')) },
      departures: { left: async () => {} } as unknown as MemberDeparture,
      events: new EventValidator(),
      log: createLogger('silent', 'test'),
    });
  const workspaceId = randomUUID();
  const received = (messageId: string) => createEvent('whatsapp.message.received', workspaceId, { messageId, chatId: CUSTOMER, live: true });
  const asked: string[][] = [];
  await consumerWith(async (_caller, ids) => {
    asked.push([...ids]);
    return [];
  }).handle([received('demo-1'), received('historial-2')]);
  t.same(asked, [], 'ids that are not the channel\'s messages are never asked for');
  await consumerWith(async () => Promise.reject(new ServiceCallError('whatsapp', 400, { message: 'Identificador inválido' }))).handle([received(randomUUID())]);
  t.same(recorded, [], 'a refusal skips the batch instead of holding every consumer behind it');
  const failing = consumerWith(async () => Promise.reject(new ServiceCallError('whatsapp', 503, {})));
  await t.rejects(failing.handle([received(randomUUID())]), 'a failure comes again');
});
