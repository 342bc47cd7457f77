// The inbox's suggested answers (POST /ai/suggestions): customer-bound tools with the automatic answers off, no send, no hand-off, no booking, no pause, and the run's cost recorded.
import t from 'tap';
import authService from '@asistente/auth';
import contactsService from '@asistente/contacts';
import type { AiRunResult, Contact, InboxConversation } from '@asistente/contracts';
import inboxService from '@asistente/inbox';
import { createEvent } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, insertAccount, signToken } from '@asistente/kit/testing';
import { OpenAiLanguageModel } from '../src/adapters/openai.js';
import { createAiService } from '../src/app.js';
import { DEFAULT_CONFIG } from '../src/domain/assistant-config.js';
import { OpenAiPeer, type RecordedRequest } from './fixtures/openai-peer.js';
import { WhatsAppSibling } from './fixtures/siblings.js';

const KEY = 'sk-proj-SuggestionKey0123456789abcdWXYZ';
const OWNER_TOOLS = ['buscar_contactos', 'leer_contacto', 'leer_mensajes_whatsapp'];

const peer = await OpenAiPeer.start();
t.teardown(() => peer.close());
const platform = await createTestPlatform(t);
const whatsapp = new WhatsAppSibling();
const model = new OpenAiLanguageModel({ baseURL: peer.url, maxRetries: 0, timeoutMs: 5000 });
const app = await buildServicesApp(t, [authService, contactsService, whatsapp.plugin, inboxService, createAiService({ model })], platform);
t.beforeEach(() => peer.reset());

async function workspace() {
  const { userId, authorization } = signToken(app, await insertAccount(platform.db.sql));
  const call = <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url: `/api${url}`, headers: { authorization }, ...(payload ? { payload } : {}) }).then((r) => ({ status: r.statusCode, body: r.json<T & { message: string; code: string }>() }));
  /** A customer's message, recorded by the team inbox as WhatsApp announces it; the conversation it is in. */
  const customer = async (jid: string, text: string) => {
    const message = whatsapp.receive(userId, jid, text);
    await platform.bus.publish([createEvent('whatsapp.message.received', userId, { messageId: message.id, chatId: jid, live: false })]);
    const handle = `+${jid.split('@')[0]!}`;
    return (await call<InboxConversation>('GET', `/conversations/lookup?channel=whatsapp&handle=${encodeURIComponent(handle)}`)).body;
  };
  return { userId, call, customer };
}

/** A conversation the inbox does not hold: its thread reads as empty. */
const CONVERSATION = { conversationId: '00000000-0000-4000-8000-00000000c0a1', channel: 'whatsapp' };

const lines = [
  { author: 'customer', text: 'Hola, ¿tenéis cita el sábado?' },
  { author: 'assistant', text: 'Sí, de 10 a 14.' },
  { author: 'customer', text: '¿Y el precio del corte?' },
];

t.test('no OpenAI key: 409 in Spanish, nothing reaches OpenAI', async (t) => {
  const w = await workspace();
  await w.call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, internalSources: [] });
  const answer = await w.call('POST', '/ai/suggestions', { ...CONVERSATION, handle: '+34611000001', contactId: null, lines });
  t.equal(answer.status, 409);
  t.equal(answer.body.code, 'OPENAI_KEY_MISSING');
  t.equal(answer.body.message, 'Configura tu API key de OpenAI');
  t.equal(peer.requests.length, 0);
});

t.test("bound to the conversation's customer: only their tools, whatever the model asks; automatic answers off; no hand-off nor booking", async (t) => {
  const w = await workspace();
  await w.call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  // Off by default; the booking switched on must still not reach a draft.
  await w.call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, autoReply: false, canBookMeetings: true, internalSources: ['contacts', 'whatsapp'] });
  whatsapp.connect(w.userId);
  const ana = await w.call<Contact>('POST', '/contacts', { firstName: 'Ana', lastName: 'García', phone: '+34 611 000 001', email: 'ana@clientes.example' });
  const bruno = await w.call<Contact>('POST', '/contacts', { firstName: 'Bruno', lastName: 'Ortega', phone: '+34 611 000 002', email: 'bruno@clientes.example' });
  const conversation = await w.customer('34611000001@s.whatsapp.net', 'Soy Ana, ¿y el precio del corte?');
  await w.customer('34611000002@s.whatsapp.net', 'Soy Bruno, pedido 6933');

  let offered: string[] = [];
  peer.reply(
    {
      respond: (body: RecordedRequest['body']) => {
        offered = (body.tools ?? []).map((tool) => tool.function.name);
        // Every tool offered, then the owner's by name, pointed at the other customer.
        const hostile = { texto: 'Bruno', id: bruno.body.id, jid: '34611000002@s.whatsapp.net', limite: 50 };
        return { toolCalls: [...offered, ...OWNER_TOOLS].map((name) => ({ name, arguments: hostile })) };
      },
    },
    { respond: (body) => ({ text: `Hola Ana, el corte cuesta 25 €. ${body.messages.filter((m) => m.role === 'tool').map((m) => m.content).join(' | ')}` }) },
  );
  const answer = await w.call<AiRunResult>('POST', '/ai/suggestions', {
    conversationId: conversation.id,
    channel: 'whatsapp',
    handle: '+34611000001',
    contactId: ana.body.id,
    lines,
    instruction: 'Dile el precio, 25 €',
  });
  t.equal(answer.status, 200, JSON.stringify(answer.body));
  t.same(offered.sort(), ['leer_ficha_del_cliente', 'leer_mensajes_del_chat'], "the customer's own tools only: no owner tool, no hand-off, no booking");
  t.match(answer.body.answer, /^Hola Ana, el corte cuesta 25 €/);
  t.match(answer.body.answer, 'ana@clientes.example', "the customer's own record");
  t.match(answer.body.answer, 'Soy Ana', "the customer's own chat");
  for (const leak of ['Bruno', 'bruno@clientes.example', '6933', '611000002']) t.notMatch(answer.body.answer, leak, `nothing of the other customer (${leak})`);
  t.match(answer.body.toolCalls.filter((c) => OWNER_TOOLS.includes(c.name)), OWNER_TOOLS.map(() => ({ summary: /no disponible/ })));

  const [first] = peer.requests;
  const user = first!.body.messages.find((m) => m.role === 'user')!.content!;
  t.match(user, '"de":"cliente","texto":"¿Y el precio del corte?"', 'the thread, as data');
  t.match(user, 'Indicación de la persona del equipo: Dile el precio, 25 €', "the member's instruction");
  t.equal(whatsapp.sent.length, 0, 'a draft is never sent');

  const [run] = await platform.db.sql<{ trigger: string; replied: boolean; costUsd: string }[]>`select trigger, replied, cost_usd from ai.runs where user_id = ${w.userId}`;
  t.match(run, { trigger: 'manual', replied: false }, 'its cost recorded, not counted as a chat answer');
  t.ok(Number(run!.costUsd) > 0);
  t.same((await w.call('GET', '/ai/chats/34611000001@s.whatsapp.net')).body, { paused: false, pausedUntil: null, reason: null }, 'the chat not paused by it');
});

t.test('a contact the inbox did not match is not bound: the draft reads no record', async (t) => {
  const w = await workspace();
  await w.call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  await w.call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, internalSources: ['contacts'] });
  await w.call<Contact>('POST', '/contacts', { firstName: 'Carla', lastName: 'Ruiz', phone: '+34 611 000 004', email: 'carla@clientes.example' });
  peer.reply({ toolCalls: [{ name: 'leer_ficha_del_cliente', arguments: {} }] }, { respond: (body) => ({ text: body.messages.filter((m) => m.role === 'tool').map((m) => m.content).join('') }) });
  const answer = await w.call<AiRunResult>('POST', '/ai/suggestions', { ...CONVERSATION, handle: '+34611000004', contactId: null, lines });
  t.equal(answer.status, 200);
  t.equal(answer.body.answer, '{"contacto":null}');
});

t.test('bad input: 400 in Spanish, nothing reaches OpenAI', async (t) => {
  const w = await workspace();
  await w.call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  const cases: [object, string][] = [
    [{ ...CONVERSATION, handle: '+34611000001', contactId: null, lines: [{ author: 'jefe', text: 'x' }] }, 'Autor de la línea inválido'],
    [{ ...CONVERSATION, conversationId: 'ana', handle: '+34611000001', contactId: null, lines }, 'Identificador inválido'],
    [{ ...CONVERSATION, handle: '+34611000001', contactId: 'ana', lines }, 'Identificador de contacto inválido'],
    [{ ...CONVERSATION, handle: '+34611000001', contactId: null, lines: Array.from({ length: 21 }, () => lines[0]) }, 'Como máximo 20 líneas'],
  ];
  for (const [body, message] of cases) {
    const answer = await w.call('POST', '/ai/suggestions', body);
    t.equal(answer.status, 400, message);
    t.equal(answer.body.message, message);
  }
  t.equal(peer.requests.length, 0);
});

t.test('the model answering nothing is a clear 502, not an empty draft', async (t) => {
  const w = await workspace();
  await w.call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  await w.call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, internalSources: [] });
  peer.reply({ text: '   ' });
  const answer = await w.call('POST', '/ai/suggestions', { ...CONVERSATION, handle: '+34611000001', contactId: null, lines });
  t.equal(answer.status, 502);
  t.equal(answer.body.message, 'El asistente no propuso ninguna respuesta. Inténtalo de nuevo');
});
