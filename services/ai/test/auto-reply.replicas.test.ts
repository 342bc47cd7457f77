import t from 'tap';
import authService from '@asistente/auth';
import contactsService from '@asistente/contacts';
import inboxService from '@asistente/inbox';
import { createEvent, MemoryBus, type EventEnvelope } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, insertAccount, signToken } from '@asistente/kit/testing';
import { OpenAiLanguageModel } from '../src/adapters/openai.js';
import { createAiService } from '../src/app.js';
import { PollingBurstClock } from '../src/consumers/burst-clock.js';
import { DEFAULT_CONFIG } from '../src/domain/assistant-config.js';
import { OpenAiPeer } from './fixtures/openai-peer.js';
import { WhatsAppSibling } from './fixtures/siblings.js';
import { waitFor } from './fixtures/wait.js';

// Two ai replicas on one database. Each takes events from a bus of its own, so the test plays the shared
// durable JetStream consumer: it hands every event of the team inbox to the replica it chooses, and redelivers
// as it likes.
const TIMING = { quietMs: 1000, pollMs: 50, leaseMs: 1500 };

const peer = await OpenAiPeer.start();
t.teardown(() => peer.close());
const platform = await createTestPlatform(t);
const whatsapp = new WhatsAppSibling();
const topology = platform.config.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
const SIBLINGS = [authService, contactsService, whatsapp.plugin, inboxService];

// The team inbox records WhatsApp's messages from the platform's bus; what it announces is taken here.
await buildServicesApp(t, SIBLINGS, platform);
const announced: EventEnvelope[] = [];
await platform.bus.subscribe('test-stream', async (events) => void announced.push(...events));

async function replica(name: string) {
  const bus = new MemoryBus();
  const clock = new PollingBurstClock(TIMING.pollMs);
  // Each its own model client: the one a test holds open must not time out while the test acts.
  const model = new OpenAiLanguageModel({ baseURL: peer.url, maxRetries: 0, timeoutMs: 30_000 });
  const app = await buildServicesApp(t, [...SIBLINGS, createAiService({ model, autoReply: { ...TIMING, clock, replica: name } })], { ...platform, bus });
  return { name, app, clock, deliver: (events: EventEnvelope[]) => bus.publish(events) };
}

const a = await replica('replica-a');
const b = await replica('replica-b');
const { userId, authorization } = signToken(b.app, await insertAccount(platform.db.sql));
await b.app.inject({ method: 'PUT', url: '/api/ai/provider/openai/key', headers: { authorization }, payload: { apiKey: 'sk-proj-ReplicasKey0123456789abcdWXYZ' } });
await b.app.inject({ method: 'PUT', url: '/api/ai/assistant', headers: { authorization }, payload: { ...DEFAULT_CONFIG, autoReply: true, internalSources: [] } });
whatsapp.connect(userId);

const figures = { bursts: 0, answers: 0, duplicates: 0, lost: 0 };
let phones = 0;

/**
 * A new customer chat: each line is stored by WhatsApp, announced on the bus as the WhatsApp service does and
 * recorded by the inbox; what the test hands the replicas is the inbox's event of it.
 */
function chat() {
  const jid = `34622${String(++phones).padStart(6, '0')}@s.whatsapp.net`;
  figures.bursts++;
  let conversationId: string | undefined;
  const line = async (text: string): Promise<EventEnvelope> => {
    const message = whatsapp.receive(userId, jid, text);
    await platform.bus.publish([createEvent('whatsapp.message.received', userId, { messageId: message.id, chatId: jid, live: true })]);
    await platform.relay.drain();
    const event = announced.findLast((e) => e.type === 'conversation.message.received' && e.userId === userId);
    if (!event) throw new Error('the inbox announced no message');
    conversationId = (event.data as { conversationId: string }).conversationId;
    return event;
  };
  return { jid, line, conversationId: () => conversationId!, sent: () => whatsapp.sent.filter((s) => s.jid === jid) };
}

/** Waits until no burst of the user is waiting or being answered, then counts what each chat got. */
async function settle(jids: string[]) {
  await waitFor(async () => {
    const [row] = await platform.db.sql<{ n: number }[]>`select count(*)::int as n from ai.chat_bursts where user_id = ${userId}`;
    return row!.n === 0;
  }, 'every burst answered', 20_000);
  const answers = jids.map((jid) => whatsapp.sent.filter((s) => s.jid === jid).length);
  figures.answers += answers.reduce((sum, n) => sum + n, 0);
  figures.duplicates += answers.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  figures.lost += answers.filter((n) => n === 0).length;
  return answers;
}

/** The lines the model was given in the request about this chat. */
function linesAsked(firstLine: string): string[][] {
  return peer.requests
    .map((request) => request.body.messages[1]?.content ?? '')
    .filter((content) => content.includes(firstLine))
    .map((content) => (JSON.parse(content.slice(content.indexOf('\n') + 1)) as { mensajes: string[] }).mensajes);
}

t.beforeEach(() => peer.reset());

await t.test(`${topology}: bursts split between two replicas get exactly one answer each, with every line`, async (t) => {
  const chats = Array.from({ length: 6 }, () => chat());
  const texts = chats.map((_, i) => [`Hola, soy el cliente ${i}`, `¿tenéis pan de centeno? (${i})`, `es para mañana (${i})`]);
  const events: EventEnvelope[][] = [];
  for (const [i, c] of chats.entries()) {
    const lines: EventEnvelope[] = [];
    for (const text of texts[i]!) lines.push(await c.line(text));
    events.push(lines);
  }
  // Line by line, the chats interleaved, each line to the replica the "stream" picks: A, B, A, B…
  let turn = 0;
  for (let line = 0; line < 3; line++) {
    for (const chatEvents of events) await [a, b][turn++ % 2]!.deliver([chatEvents[line]!]);
  }
  const answers = await settle(chats.map((c) => c.jid));
  t.same(answers, [1, 1, 1, 1, 1, 1], 'one answer per burst');
  for (const [i, lines] of texts.entries()) t.same(linesAsked(lines[0]!), [lines], `burst ${i}: one model run with its three lines in order`);
});

await t.test(`${topology}: the same event delivered to both replicas, at once and again later, is answered once`, async (t) => {
  const c = chat();
  const event = await c.line('¿A qué hora abrís?');
  await Promise.all([a.deliver([event]), b.deliver([event])]);
  await settle([c.jid]);
  await Promise.all([b.deliver([event]), a.deliver([event])]);
  const [row] = await platform.db.sql<{ n: number }[]>`select count(*)::int as n from ai.chat_bursts where user_id = ${userId}`;
  t.equal(row!.n, 0, 'the redelivery starts no burst');
  t.equal(c.sent().length, 1);
  t.equal(peer.requests.length, 1, 'the model was asked once');
});

await t.test(`${topology}: a replica that dies holding a burst: the other answers it once the lease runs out, and only once`, async (t) => {
  const c = chat();
  let release!: () => void;
  peer.reply({ until: new Promise<void>((resolve) => (release = resolve)), then: { text: 'Respuesta de la réplica muerta' } }, { text: 'Abrimos a las 9.' });
  const started = Date.now();
  await a.deliver([await c.line('¿Abrís el domingo?')]);
  const [held] = await waitFor(async () => {
    const rows = await platform.db.sql<{ claimedBy: string }[]>`select claimed_by from ai.chat_bursts where user_id = ${userId} and chat_id = ${c.conversationId()}`;
    return rows[0]?.claimedBy && peer.requests.length === 1 ? rows : undefined;
  }, 'a replica answering the burst');
  // Either replica may claim the burst (both poll): the one holding it is the one that dies.
  const holder = [a, b].find((r) => r.name === held!.claimedBy);
  t.ok(holder, `held by ${held!.claimedBy}`);
  holder!.clock.stop(); // dies: no more ticks, so no lease renewal and nothing released

  const answered = await waitFor(() => c.sent()[0], 'the other replica answering the burst', 20_000);
  const elapsed = Date.now() - started;
  t.equal(answered.text, 'Abrimos a las 9.');
  const bound = TIMING.quietMs + TIMING.leaseMs + 2 * TIMING.pollMs;
  t.ok(elapsed < bound + 2000, `answered ${elapsed} ms after the message (quiet ${TIMING.quietMs} + lease ${TIMING.leaseMs} + polls = ${bound} ms, 2 s allowed for the model call on a busy machine)`);

  // The dead replica's answer lands after all (it had asked before dying): same burst, same client id.
  release();
  await waitFor(() => whatsapp.requested.filter((s) => s.jid === c.jid).length === 2, "the dead replica's late send");
  t.same(c.sent().map((s) => s.text), ['Abrimos a las 9.'], 'the customer gets one message');
  await settle([c.jid]);
});

await t.test(`${topology}: a send cut on its way to WhatsApp (a replica gone mid-request) is answered again, once`, async (t) => {
  const c = chat();
  whatsapp.failSends = 1;
  await a.deliver([await c.line('¿Tenéis talla M?')]);
  await waitFor(() => c.sent()[0], 'the burst answered after its failed send', 20_000);
  t.equal(whatsapp.requested.filter((s) => s.jid === c.jid).length, 2, 'asked twice: the cut send, then the retry once the lease ran out');
  t.equal(c.sent().length, 1, 'the customer gets one message');
  await settle([c.jid]);
});

t.comment(`replicas auto-replies: ${figures.bursts} bursts over 2 replicas, ${figures.answers} answers, ${figures.duplicates} duplicates, ${figures.lost} lost`);
