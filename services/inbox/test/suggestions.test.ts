// The assistant's suggested answers in the team inbox: a private entry drafted by the ai with the customer's own tools, asked by a button or an @Asistente note, never sent, and its failures said in Spanish with nothing stored.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createAiService } from '@asistente/ai';
import { ServiceCallError } from '@asistente/kit';
import { createTestPlatform, type Teardown } from '@asistente/kit/testing';
import { waMessage } from '../../whatsapp/test/support/fake-socket.js';
import { OpenAiLanguageModel } from '../../ai/src/adapters/openai.js';
import { DEFAULT_CONFIG } from '../../ai/src/domain/assistant-config.js';
import { OpenAiPeer, type RecordedRequest } from '../../ai/test/fixtures/openai-peer.js';
import { AssistantDrafts } from '../src/adapters/assistant-drafts.js';
import { asksAssistant } from '../src/domain/suggestions.js';
import { openLive, teamInbox, until, type Body, type Member } from './support/team-inbox.js';

const platform = await createTestPlatform(t);
const sql = platform.db.sql;
const peer = await OpenAiPeer.start();
t.teardown(() => peer.close());
t.beforeEach(() => peer.reset());

const CUSTOMER = '34611222333@s.whatsapp.net';
const KEY = 'sk-proj-InboxSuggestKey0123456789abcdWXYZ';

/** A workspace whose customer Carmen (a contact) wrote once; the assistant configured but its automatic answers off. */
async function withCustomer(t: Teardown, { key = true } = {}) {
  const ai = createAiService({ model: new OpenAiLanguageModel({ baseURL: peer.url, maxRetries: 0, timeoutMs: 5000 }) });
  const team = await teamInbox(t, platform, [ai]);
  const { owner } = team;
  if (key) await owner.call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  await owner.call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, autoReply: false, internalSources: ['contacts', 'whatsapp'] });
  const carmen = await owner.call('POST', '/contacts', { firstName: 'Carmen', lastName: 'Ruiz', phone: '+34 611 22 23 33', email: 'carmen@clientes.example' });
  await owner.call('POST', '/contacts', { firstName: 'Bruno', lastName: 'Ortega', phone: '+34 622 33 34 44', email: 'bruno@clientes.example' });
  const socket = await team.link();
  socket.notify([waMessage({ remoteJid: CUSTOMER, text: '¿Cuánto cuesta el corte?', pushName: 'Carmen' })]);
  const conversation = await until(async () => (await owner.call('GET', '/conversations')).body.data?.[0], 'the conversation');
  const thread = async (m: Member = owner) => ((await m.call('GET', `/conversations/${conversation.id}`)).body.messages ?? []) as Body[];
  const entries = async () => (await sql<{ count: number }[]>`select count(*)::int from inbox.entries where conversation_id = ${String(conversation.id)}`)[0]!.count;
  return { ...team, socket, conversation, carmenId: String(carmen.body.id), thread, entries };
}

t.test('"Sugerir respuesta": a private entry by the assistant, drafted with the customer\'s own tools, never sent; the member sends their edit', async (t) => {
  const team = await withCustomer(t);
  const ana = await team.member('agent', 'Ana', 'Ruiz');
  const live = await openLive(t, team.app, team.owner);
  await live.next('ready');
  let offered: string[] = [];
  peer.reply(
    {
      respond: (body: RecordedRequest['body']) => {
        offered = (body.tools ?? []).map((tool) => tool.function.name);
        return { toolCalls: [{ name: 'leer_ficha_del_cliente', arguments: { id: 'Bruno' } }, { name: 'buscar_contactos', arguments: { texto: 'Bruno' } }] };
      },
    },
    { respond: (body) => ({ text: `Hola Carmen, el corte cuesta 25 €. ${body.messages.filter((m) => m.role === 'tool').map((m) => m.content).join(' ')}` }) },
  );
  const sentBefore = team.socket.sent.length;

  const asked = await ana.call('POST', `/conversations/${team.conversation.id}/suggestions`, { instruction: 'Dile que 25 €' });
  t.equal(asked.status, 201, JSON.stringify(asked.body));
  t.match(asked.body, { conversationId: team.conversation.id, kind: 'suggestion', direction: null, author: 'assistant', authorId: null, text: /^Hola Carmen, el corte cuesta 25 €/ });
  t.same(offered.sort(), ['leer_ficha_del_cliente', 'leer_mensajes_del_chat'], "the customer's own tools, not the owner's");
  t.match(asked.body.text, 'carmen@clientes.example', "Carmen's own record");
  t.notMatch(asked.body.text, 'bruno', 'nothing of another customer');
  const user = peer.requests[0]!.body.messages.find((m) => m.role === 'user')!.content!;
  t.match(user, '"de":"cliente","texto":"¿Cuánto cuesta el corte?"');
  t.match(user, 'Indicación de la persona del equipo: Dile que 25 €');
  t.same(await live.next('conversation', (c) => c.conversationId === team.conversation.id), { conversationId: team.conversation.id }, 'open screens hear of it');
  t.match((await team.thread(ana)).at(-1), { id: asked.body.id, kind: 'suggestion', author: 'assistant' }, 'in the thread');
  t.equal(team.socket.sent.length, sentBefore, 'nothing reached WhatsApp');
  t.match((await team.owner.call('GET', `/conversations/${team.conversation.id}`)).body, { assistantActive: true, lastMessagePreview: '¿Cuánto cuesta el corte?' }, 'neither a takeover nor the last message');

  // The member edits the draft and sends it: only then does it reach the customer, as theirs.
  const sent = await ana.call('POST', `/conversations/${team.conversation.id}/messages`, { text: 'Hola Carmen, el corte cuesta 25 € 😊' });
  t.match(sent.body, { kind: 'message', author: 'member', authorId: ana.userId });
  await until(() => team.socket.sent.length === sentBefore + 1, 'the edited answer sent');
  t.equal(team.socket.sent.at(-1)!.text, 'Hola Carmen, el corte cuesta 25 € 😊');
  t.notOk(team.socket.sent.some((m) => m.text.includes('carmen@clientes.example')), 'the draft itself never left');
});

t.test('a note naming @Asistente asks for one with its text; the note answers as always', async (t) => {
  t.ok(asksAssistant('@asistente, ¿qué le digo?'));
  t.ok(asksAssistant('Pregunta a @Asístente por favor'));
  t.notOk(asksAssistant('@Asistentes del turno'), 'a longer word is not the assistant');
  t.notOk(asksAssistant('el asistente lo sabrá'), 'without @ it is only a word');

  const team = await withCustomer(t);
  const live = await openLive(t, team.app, team.owner);
  await live.next('ready');
  peer.reply({ text: 'Claro, Carmen: tenemos hueco el sábado a las 10.' });
  const note = await team.owner.call('POST', `/conversations/${team.conversation.id}/notes`, { text: '@Asistente ofrécele el sábado a las 10' });
  t.equal(note.status, 201);
  t.same(Object.keys(note.body).sort(), ['at', 'author', 'authorId', 'authorName', 'conversationId', 'direction', 'id', 'kind', 'text']);
  t.match(note.body, { kind: 'note', author: 'member', text: '@Asistente ofrécele el sábado a las 10' });
  await live.next('conversation', (c) => c.conversationId === team.conversation.id);
  const suggestion = await until(async () => (await team.thread()).find((e) => e.kind === 'suggestion'), 'the suggestion in the thread');
  t.match(suggestion, { author: 'assistant', text: 'Claro, Carmen: tenemos hueco el sábado a las 10.' });
  t.match(peer.requests[0]!.body.messages.find((m) => m.role === 'user')!.content, 'Indicación de la persona del equipo: @Asistente ofrécele el sábado a las 10');
  t.notMatch(peer.requests[0]!.body.messages.find((m) => m.role === 'user')!.content, '"de":"equipo"', 'the note is the instruction, not a line of the thread');
  t.same((await team.owner.call('GET', '/conversations/mentions')).body.data, [], 'nobody of the team was named');
  const plain = await team.owner.call('POST', `/conversations/${team.conversation.id}/notes`, { text: 'sin asistente' });
  t.equal(plain.status, 201);
  t.equal(peer.requests.length, 1, 'a note without @Asistente asks nothing');
});

t.test("a note naming @Asistente that gets no draft (no key) is answered by the assistant's own note saying why", async (t) => {
  const team = await withCustomer(t, { key: false });
  const note = await team.owner.call('POST', `/conversations/${team.conversation.id}/notes`, { text: '@Asistente ¿qué le respondo?' });
  t.equal(note.status, 201, 'the note answers as always');
  const why = await until(async () => (await team.thread()).find((e) => e.kind === 'note' && e.author === 'assistant'), "the assistant's note");
  t.match(why, { kind: 'note', author: 'assistant', authorId: null, authorName: 'Asistente', text: 'No pude preparar la sugerencia: Configura tu API key de OpenAI' });
  t.notOk((await team.thread()).some((e) => e.kind === 'suggestion'), 'no suggestion stored');
  t.equal(team.socket.sent.length, 0, 'nothing reached the customer');
});

t.test('no OpenAI key, or OpenAI failing: the Spanish error, nothing stored', async (t) => {
  const team = await withCustomer(t, { key: false });
  const before = await team.entries();
  const noKey = await team.owner.call('POST', `/conversations/${team.conversation.id}/suggestions`, {});
  t.equal(noKey.status, 409);
  t.match(noKey.body, { statusCode: 409, code: 'OPENAI_KEY_MISSING', message: 'Configura tu API key de OpenAI' });
  const bare = await team.owner.call('POST', `/conversations/${team.conversation.id}/suggestions`);
  t.match(bare, { status: 400, body: { message: 'El cuerpo de la petición debe ser un objeto JSON' } }, 'no body at all: the house\'s 400 (an empty object asks with no instruction)');

  await team.owner.call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  peer.reply({ status: 500 });
  const failing = await team.owner.call('POST', `/conversations/${team.conversation.id}/suggestions`, {});
  t.equal(failing.status, 502);
  t.equal(failing.body.message, 'OpenAI no está disponible en este momento. Inténtalo de nuevo en unos minutos');
  t.equal(await team.entries(), before, 'nothing stored');
});

t.test("another workspace's conversation is 404; bad input is 400; nothing written, nothing asked", async (t) => {
  const team = await withCustomer(t);
  const other = await teamInbox(t, platform);
  const before = await team.entries();
  const foreign = await other.owner.call('POST', `/conversations/${team.conversation.id}/suggestions`, {});
  t.equal(foreign.status, 404);
  t.equal(foreign.body.message, 'Conversación no encontrada');
  for (const [body, message] of [
    [{ instruction: 'x'.repeat(4097) }, 'La indicación admite como máximo 4096 caracteres'],
    [{ instruction: 7 }, 'La indicación debe ser texto'],
  ] as const) {
    const answer = await team.owner.call('POST', `/conversations/${team.conversation.id}/suggestions`, body);
    t.equal(answer.status, 400);
    t.equal(answer.body.message, message);
  }
  t.equal((await team.owner.call('POST', '/conversations/not-an-id/suggestions', {})).body.message, 'Identificador inválido');
  t.equal(await team.entries(), before);
  t.equal(peer.requests.length, 0);
});

t.test('the call to the ai gives up in time and says so; an answer between services never signs the member out', async (t) => {
  const failWith = (error: Error) => new AssistantDrafts({ call: async () => Promise.reject(error) }, 10);
  const request = { conversationId: randomUUID(), channel: 'whatsapp' as const, handle: '+34611222333', contactId: null, lines: [], instruction: undefined };
  await t.rejects(failWith(new ServiceCallError('ai', 503, undefined)).draft('w', request), { statusCode: 504, code: 'ASSISTANT_TIMEOUT', message: 'El asistente no respondió a tiempo. Inténtalo de nuevo en unos segundos' });
  await t.rejects(failWith(new ServiceCallError('ai', 401, { message: 'Sesión inválida o expirada' })).draft('w', request), { statusCode: 502, code: 'ASSISTANT_UNAVAILABLE' });
  await t.rejects(failWith(new ServiceCallError('ai', 409, { code: 'OPENAI_QUOTA', message: 'Tu cuenta de OpenAI no tiene saldo disponible.' })).draft('w', request), { statusCode: 409, code: 'OPENAI_QUOTA' });
});
