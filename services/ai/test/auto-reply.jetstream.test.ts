import t from 'tap';
import authService from '@asistente/auth';
import contactsService from '@asistente/contacts';
import inboxService from '@asistente/inbox';
import { createEvent } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, insertAccount, signToken } from '@asistente/kit/testing';
import { OpenAiLanguageModel } from '../src/adapters/openai.js';
import { createAiService } from '../src/app.js';
import { AUTO_REPLY_CONSUMER } from '../src/consumers/auto-reply.consumer.js';
import { DEFAULT_CONFIG } from '../src/domain/assistant-config.js';
import { OpenAiPeer } from './fixtures/openai-peer.js';
import { WhatsAppSibling } from './fixtures/siblings.js';
import { waitFor } from './fixtures/wait.js';

const natsUrl = process.env.NATS_URL;
const skip = natsUrl ? false : 'NATS_URL is not set: the JetStream consumer test runs against a real NATS (CI sets it)';

t.test(`over JetStream: a message relayed from an outbox reaches the team inbox, whose event reaches the ${AUTO_REPLY_CONSUMER} consumer, and is answered`, { skip }, async (t) => {
  const peer = await OpenAiPeer.start();
  t.teardown(() => peer.close());
  const platform = await createTestPlatform(t, { nats: true });
  t.equal(platform.bus.kind, 'jetstream');
  const whatsapp = new WhatsAppSibling();
  const model = new OpenAiLanguageModel({ baseURL: peer.url, maxRetries: 0, timeoutMs: 2000 });
  const app = await buildServicesApp(t, [authService, contactsService, whatsapp.plugin, inboxService, createAiService({ model, autoReply: { quietMs: 20, pollMs: 50 } })], platform);
  const { userId, authorization } = signToken(app, await insertAccount(platform.db.sql));
  await app.inject({ method: 'PUT', url: '/api/ai/provider/openai/key', headers: { authorization }, payload: { apiKey: 'sk-proj-JetStreamKey0123456789abcd' } });
  await app.inject({ method: 'PUT', url: '/api/ai/assistant', headers: { authorization }, payload: { ...DEFAULT_CONFIG, autoReply: true, internalSources: [] } });
  whatsapp.connect(userId);
  const message = whatsapp.receive(userId, '5215500001234@s.whatsapp.net', 'Hola, ¿abren hoy?');
  peer.reply({ text: 'Sí, hasta las 20:00.' });
  // As the WhatsApp service publishes it: through its outbox, relayed to the stream.
  const outbox = platform.outbox('platform');
  await platform.db.sql.begin((tx) =>
    outbox.append(tx, [createEvent('whatsapp.message.received', userId, { messageId: message.id, chatId: message.chatId, live: true })]),
  );
  const sent = await waitFor(() => whatsapp.sent.find((s) => s.userId === userId), 'the automatic answer over JetStream', 20_000);
  t.match(sent, { jid: message.chatId, text: 'Sí, hasta las 20:00.', origin: 'ai' });
});
