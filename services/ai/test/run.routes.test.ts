import t from 'tap';
import contactsService from '@asistente/contacts';
import type { AiRunResult, AssistantConfig, Contact, DomainEvent } from '@asistente/contracts';
import { buildServiceApp, buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { OpenAiLanguageModel } from '../src/adapters/openai.js';
import aiService, { createAiService } from '../src/app.js';
import { DEFAULT_CONFIG } from '../src/domain/assistant-config.js';
import { memoryLogger } from './fixtures/memory-log.js';
import { OpenAiPeer } from './fixtures/openai-peer.js';
import { EmailSibling, WhatsAppSibling } from './fixtures/siblings.js';
import { waitFor } from './fixtures/wait.js';

const KEY = 'sk-proj-RunTestKey0123456789abcdefQRST';

const peer = await OpenAiPeer.start();
t.teardown(() => peer.close());
const logs = memoryLogger();
const platform = await createTestPlatform(t, { log: logs.log, config: { OPENAI_BASE_URL: peer.url } });
const whatsapp = new WhatsAppSibling();
const email = new EmailSibling();
// Generous per attempt (a loaded machine must not turn a prompt answer into a timeout); the slow case is held
// open by the peer until the run has answered, so it times out whatever the machine's speed.
const model = new OpenAiLanguageModel({ baseURL: peer.url, maxRetries: 0, timeoutMs: 4000 });
const app = await buildServicesApp(t, [contactsService, whatsapp.plugin, email.plugin, createAiService({ model })], platform);

const events: DomainEvent[] = [];
await platform.bus.subscribe('run-test-observer', async (batch) => {
  events.push(...(batch as DomainEvent[]));
});

t.beforeEach(() => peer.reset());

async function user(config: Partial<AssistantConfig> = {}, withKey = true) {
  const { userId, authorization } = signToken(app);
  const call = <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url: `/api${url}`, headers: { authorization }, ...(payload ? { payload } : {}) }).then((r) => ({
      status: r.statusCode,
      body: r.json<T>(),
    }));
  if (withKey) await call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  await call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, ...config });
  return { userId, call };
}

const run = (u: Awaited<ReturnType<typeof user>>, payload: object) => u.call<AiRunResult & { message: string; code: string }>('POST', '/ai/run', payload);

t.test('no stored key: 409 in Spanish, nothing reaches OpenAI', async (t) => {
  const u = await user({}, false);
  const answer = await run(u, { message: 'Hola' });
  t.equal(answer.status, 409);
  t.equal(answer.body.message, 'Configura tu API key de OpenAI');
  t.equal(peer.requests.length, 0);
});

t.test('a plain run: the configuration drives the call, variables are filled, cost and event recorded', async (t) => {
  const u = await user({
    name: 'Lucía',
    systemPrompt: 'Saluda a {nombre_cliente}. El precio es {precio}. Horario: {horario_atencion}.',
    variableValues: { '{precio}': '25 €' },
    model: 'gpt-4o',
    temperature: 0.7,
    maxTokens: 300,
    internalSources: [],
  });
  const contact = await u.call<Contact>('POST', '/contacts', { firstName: 'Marta', lastName: 'Gómez', phone: '5215512345678' });
  peer.reply({ text: '¡Hola Marta! Cuesta 25 €.', usage: { prompt: 1000, completion: 500 } });

  const answer = await run(u, { message: '¿Cuánto cuesta?', contactId: contact.body.id });
  t.equal(answer.status, 200);
  t.same(answer.body, {
    answer: '¡Hola Marta! Cuesta 25 €.',
    model: 'gpt-4o',
    usage: { promptTokens: 1000, completionTokens: 500, totalTokens: 1500 },
    // gpt-4o: 2.50 USD per million input tokens, 10 per million output tokens.
    costUsd: 0.0075,
    toolCalls: [],
  });
  const [request] = peer.requests;
  t.equal(request!.authorization, `Bearer ${KEY}`, 'the user key, opened for the call');
  t.match(request!.body, { model: 'gpt-4o', temperature: 0.7, max_completion_tokens: 300 });
  t.notOk(request!.body.tools, 'no source configured, no tools');
  const system = request!.body.messages[0]!;
  t.equal(system.role, 'system');
  t.match(system.content, 'Saluda a Marta. El precio es 25 €. Horario: (dato no disponible).');
  t.match(system.content, 'Te llamas Lucía.');
  t.same(request!.body.messages[1], { role: 'user', content: '¿Cuánto cuesta?' });

  const event = await waitFor(() => events.find((e) => e.userId === u.userId && e.type === 'ai.run.completed'), 'ai.run.completed');
  t.same(event.data, { model: 'gpt-4o', promptTokens: 1000, completionTokens: 500, totalTokens: 1500, costUsd: 0.0075, trigger: 'manual' });
});

t.test('only configured sources whose service is usable are offered', async (t) => {
  const all = await user({ internalSources: ['contacts', 'whatsapp', 'emails', 'calendar'] });
  await run(all, { message: 'Hola' });
  const names = (peer.requests[0]!.body.tools ?? []).map((tool) => tool.function.name);
  t.same(names, ['buscar_contactos', 'leer_contacto'], 'whatsapp and mail not connected, calendar service absent');

  whatsapp.connect(all.userId);
  peer.reset();
  await run(all, { message: 'Hola' });
  t.same((peer.requests[0]!.body.tools ?? []).map((tool) => tool.function.name), ['buscar_contactos', 'leer_contacto', 'leer_mensajes_whatsapp']);

  const onlyCalendar = await user({ internalSources: ['calendar'] });
  peer.reset();
  await run(onlyCalendar, { message: 'Hola' });
  t.notOk(peer.requests[0]!.body.tools, 'a configured source whose service is missing is not offered');

  const mail = await user({ internalSources: ['emails', 'whatsapp'] });
  email.connect(mail.userId);
  email.deliver(mail.userId, 'proveedor@harinas.example', 'Factura de octubre', 'Adjuntamos la factura de harina');
  peer.reset();
  peer.reply({ toolCalls: [{ name: 'buscar_correos', arguments: { texto: 'factura' } }] }, { text: 'Tienes la factura de octubre.' });
  const answer = await run(mail, { message: '¿Llegó la factura?' });
  t.same(peer.requests[0]!.body.tools?.map((tool) => tool.function.name), ['buscar_correos'], 'configured and connected: offered; whatsapp not connected');
  t.same(answer.body.toolCalls, [{ name: 'buscar_correos', arguments: { texto: 'factura' }, summary: 'Buscó correos «factura»: 1 encontrado' }]);
  t.match(peer.requests[1]!.body.messages.at(-1)!.content, 'Factura de octubre');
});

t.test('a tool call is answered from the user own data, never another user', async (t) => {
  const ana = await user({ internalSources: ['contacts'] });
  const luis = await user({ internalSources: ['contacts'] });
  await ana.call('POST', '/contacts', { firstName: 'Marta', lastName: 'Gómez', email: 'marta@ana.example' });
  const other = await luis.call<Contact>('POST', '/contacts', { firstName: 'Marta', lastName: 'Ruiz', email: 'marta@luis.example' });

  peer.reply(
    { toolCalls: [{ name: 'buscar_contactos', arguments: { texto: 'Marta' } }, { name: 'leer_contacto', arguments: { id: other.body.id } }] },
    { text: 'Tienes a Marta Gómez.' },
  );
  const answer = await run(ana, { message: '¿Qué Marta tengo?' });
  t.equal(answer.status, 200);
  t.equal(answer.body.answer, 'Tienes a Marta Gómez.');
  t.same(answer.body.toolCalls, [
    { name: 'buscar_contactos', arguments: { texto: 'Marta' }, summary: 'Buscó contactos «Marta»: 1 encontrado' },
    { name: 'leer_contacto', arguments: { id: other.body.id }, summary: 'leer_contacto: no encontrado' },
  ]);
  const second = peer.requests[1]!.body.messages;
  const toolResults = second.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
  t.equal(toolResults.length, 2);
  t.match(toolResults[0], 'Gómez');
  t.notMatch(toolResults.join(' '), /Ruiz|luis\.example/, "another user's contact never reaches the model");
  t.match(toolResults[1], 'No encontrado');
  t.equal(answer.body.usage.totalTokens, 300, 'usage summed over both calls');
});

t.test('OpenAI errors become Spanish answers the owner can act on; never a 500', async (t) => {
  const u = await user({ internalSources: [] });
  let release = () => {};
  const held = { promise: new Promise<void>((resolve) => (release = resolve)), release: () => release() };
  const cases = [
    { reply: { status: 429, retryAfterMs: 1 }, status: 503, code: 'OPENAI_RATE_LIMITED' },
    { reply: { status: 429, code: 'insufficient_quota' }, status: 409, code: 'OPENAI_QUOTA' },
    { reply: { status: 500 }, status: 502, code: 'OPENAI_UNAVAILABLE' },
    { reply: { status: 400, message: 'bad model' }, status: 502, code: 'OPENAI_REJECTED' },
    { reply: { until: held.promise, then: { text: 'tarde' } }, status: 504, code: 'OPENAI_TIMEOUT' },
  ];
  for (const c of cases) {
    peer.reply(c.reply);
    const answer = await run(u, { message: 'Hola' });
    t.equal(answer.status, c.status, c.code);
    t.equal(answer.body.code, c.code);
    t.match(answer.body.message, /OpenAI/);
  }
  held.release();
});

t.test('a key OpenAI rejects shows as invalid until a run succeeds again', async (t) => {
  const u = await user({ internalSources: [] });
  t.same((await u.call('GET', '/ai/provider/openai/key')).body, { exists: true, last4: 'QRST', valid: true });
  peer.reply({ status: 401, code: 'invalid_api_key' });
  const rejected = await run(u, { message: 'Hola' });
  t.equal(rejected.status, 409);
  t.equal(rejected.body.code, 'OPENAI_KEY_INVALID');
  t.notMatch(JSON.stringify(rejected.body), KEY.slice(3), 'the answer never quotes the key');
  t.same((await u.call('GET', '/ai/provider/openai/key')).body, { exists: true, last4: 'QRST', valid: false });
  t.equal((await run(u, { message: 'Hola' })).status, 200);
  t.same((await u.call('GET', '/ai/provider/openai/key')).body, { exists: true, last4: 'QRST', valid: true });
});

t.test('rate limits and server errors are retried with backoff before failing', async (t) => {
  const retrying = await buildServiceApp(t, createAiService({ model: new OpenAiLanguageModel({ baseURL: peer.url, maxRetries: 2, timeoutMs: 2000 }) }), platform);
  const { authorization } = signToken(retrying);
  const call = (method: 'PUT' | 'POST', url: string, payload: object) => retrying.inject({ method, url, headers: { authorization }, payload });
  await call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  await call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, internalSources: [] });
  peer.reply({ status: 429, retryAfterMs: 5 }, { status: 503, retryAfterMs: 5 }, { text: 'Por fin' });
  const answer = await call('POST', '/ai/run', { message: 'Hola' });
  t.equal(answer.statusCode, 200);
  t.equal(answer.json().answer, 'Por fin');
  t.equal(peer.requests.length, 3, 'two retries, then the answer');
});

t.test('the default service reaches the OPENAI_BASE_URL of the configuration', async (t) => {
  const plain = await buildServiceApp(t, aiService, platform);
  const { authorization } = signToken(plain);
  await plain.inject({ method: 'PUT', url: '/ai/provider/openai/key', headers: { authorization }, payload: { apiKey: KEY } });
  await plain.inject({ method: 'PUT', url: '/ai/assistant', headers: { authorization }, payload: { ...DEFAULT_CONFIG, internalSources: [] } });
  peer.reply({ text: 'Desde el proxy' });
  const answer = await plain.inject({ method: 'POST', url: '/ai/run', headers: { authorization }, payload: { message: 'Hola' } });
  t.equal(answer.json().answer, 'Desde el proxy');
  t.equal(peer.requests.length, 1);
});

t.test('bad input: 400 in Spanish; another user contact: 404', async (t) => {
  const u = await user();
  const luis = await user();
  const other = await luis.call<Contact>('POST', '/contacts', { firstName: 'Pablo', lastName: 'Ruiz' });
  const empty = await run(u, { message: '' });
  t.equal(empty.status, 400);
  t.equal(empty.body.message, 'Escribe un mensaje para el asistente');
  t.equal((await run(u, { message: 'Hola', contactId: 'nope' })).body.message, 'Identificador de contacto inválido');
  t.equal((await run(u, { message: 'Hola', jid: 'no es un jid' })).body.message, 'Identificador de chat de WhatsApp inválido');
  const foreign = await run(u, { message: 'Hola', contactId: other.body.id });
  t.equal(foreign.status, 404);
  t.equal(foreign.body.message, 'Contacto no encontrado');
  t.equal(peer.requests.length, 0);
});

t.test('the key never appears in a log line', async (t) => {
  t.ok(logs.text().length > 0, 'the service logged');
  t.notMatch(logs.text(), KEY.slice(3));
});

t.test('the runs above counted their model calls by outcome and their tokens (metrics), never the key', async (t) => {
  const text = await platform.metrics.text();
  const value = (series: string) => Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.slice(series.length + 1) ?? 0);
  t.ok(value('asistente_ai_model_calls_total{outcome="ok",process="test"}') >= 1, 'answered calls');
  t.ok(value('asistente_ai_tokens_total{kind="prompt",process="test"}') > 0, 'prompt tokens');
  t.ok(value('asistente_ai_tokens_total{kind="completion",process="test"}') > 0, 'completion tokens');
  t.match(text, /^asistente_ai_runs_today\{trigger="manual",process="test"\} [1-9]\d*$/m, "today's runs from ai.runs");
  t.notMatch(text, KEY.slice(-8), 'no key in the metrics');
});
