import t from 'tap';
import type { AiRunResult } from '@asistente/contracts';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { OpenAiLanguageModel } from '../src/adapters/openai.js';
import { createAiService } from '../src/app.js';
import { DEFAULT_CONFIG } from '../src/domain/assistant-config.js';
import { offeredTools } from '../src/domain/tools/registry.js';
import type { CustomerReach } from '../src/domain/tools/reach.js';
import { OpenAiPeer } from './fixtures/openai-peer.js';
import { CalendarSibling } from './fixtures/siblings.js';

/**
 * The calendar tools follow the calendar service's registry: offered when any provider is connected (Google,
 * CalDAV or Outlook, as GET /events/providers says), reading the provider-neutral /events; the booking only
 * with a meeting provider (Google Meet or Teams, as GET /meetings/provider says).
 */
const KEY = 'sk-proj-CalendarToolsKey0123456789abcdEF';

const peer = await OpenAiPeer.start();
t.teardown(() => peer.close());
const platform = await createTestPlatform(t);
const calendar = new CalendarSibling();
const model = new OpenAiLanguageModel({ baseURL: peer.url, maxRetries: 0, timeoutMs: 5000 });
const app = await buildServicesApp(t, [calendar.plugin, createAiService({ model })], platform);

t.beforeEach(() => peer.reset());

const start = new Date(Date.now() + 2 * 86_400_000);
start.setUTCHours(10, 0, 0, 0);
const range = { desde: start.toISOString(), hasta: new Date(start.getTime() + 86_400_000).toISOString() };

async function owner() {
  const { userId, authorization } = signToken(app);
  const call = <T>(method: 'POST' | 'PUT', url: string, payload: object) =>
    app.inject({ method, url: `/api${url}`, headers: { authorization }, payload }).then((r) => ({ status: r.statusCode, body: r.json<T>() }));
  await call('PUT', '/ai/provider/openai/key', { apiKey: KEY });
  await call('PUT', '/ai/assistant', { ...DEFAULT_CONFIG, internalSources: ['calendar'] });
  return { userId, call };
}

for (const source of ['caldav', 'msteams'] as const) {
  t.test(`a ${source}-only owner gets the calendar tools, which read the merged /events`, async (t) => {
    const { userId, call } = await owner();
    calendar.connect(userId, source);
    calendar.schedule(userId, `Cita en ${source}`, start.toISOString(), []);
    peer.reply({ toolCalls: [{ name: 'listar_eventos', arguments: range }] }, { text: 'Tienes una cita.' });
    const answer = await call<AiRunResult>('POST', '/ai/run', { message: '¿Qué tengo mañana?' });
    t.equal(answer.status, 200);
    t.same((peer.requests[0]!.body.tools ?? []).map((tool) => tool.function.name), ['listar_eventos', 'buscar_huecos_libres']);
    const results = peer.requests[1]!.body.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '').join('\n');
    t.match(results, `Cita en ${source}`, 'the event came back from /events');
  });
}

t.test('an owner with no calendar provider connected gets no calendar tools', async (t) => {
  const { call } = await owner();
  peer.reply({ text: 'No veo tu calendario.' });
  t.equal((await call<AiRunResult>('POST', '/ai/run', { message: '¿Qué tengo mañana?' })).status, 200);
  t.same(peer.requests[0]!.body.tools ?? [], []);
});

t.test("a customer's chat may book a meeting only when Google or Microsoft is connected (the meeting port's providers)", async (t) => {
  const toolsFor = async (...sources: ('google' | 'caldav' | 'msteams')[]) => {
    const { userId } = signToken(app);
    for (const source of sources) calendar.connect(userId, source);
    const reach: CustomerReach = { kind: 'customer', conversationId: null, chatKey: 'whatsapp:+34600000001', contact: undefined, addresses: [] };
    const bookings = { reserve: async () => true, release: async () => undefined };
    const tools = await offeredTools(['calendar'], { workspaceId: userId, caller: userId, services: platform.services, reach, bookings }, { booking: true });
    return tools.map((tool) => tool.name);
  };
  t.same(await toolsFor('caldav'), ['listar_reuniones_del_cliente', 'buscar_huecos_libres'], 'CalDAV: meetings and free slots, no booking');
  t.same(await toolsFor('msteams'), ['listar_reuniones_del_cliente', 'buscar_huecos_libres', 'agendar_reunion'], 'Outlook: booking with Teams');
  t.same(await toolsFor('caldav', 'google'), ['listar_reuniones_del_cliente', 'buscar_huecos_libres', 'agendar_reunion'], 'with Google: booking too');
  t.same(await toolsFor(), [], 'nothing connected: nothing');
});
