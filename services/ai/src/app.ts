import { authPlugin, requireAuth, type App, type ServicePlugin } from '@asistente/kit';
import { OPENAI_DEFAULTS, OpenAiLanguageModel, type LanguageModel } from './adapters/openai.js';
import { AUTO_REPLY_CONSUMER, AutoReplyConsumer } from './consumers/auto-reply.consumer.js';
import { TimeoutQuietTimer, type QuietTimer } from './consumers/quiet-timer.js';
import { AssistantConfigRepository } from './domain/assistant-config.repository.js';
import { AssistantConfigService } from './domain/assistant-config.service.js';
import { AssistantRunService } from './domain/assistant-run.service.js';
import { ChatStateService } from './domain/chat-state.service.js';
import { ChatStatesRepository } from './domain/chat-states.repository.js';
import { CustomerBookingsRepository } from './domain/customer-bookings.repository.js';
import { ProviderKeysRepository } from './domain/provider-keys.repository.js';
import { ProviderKeysService } from './domain/provider-keys.service.js';
import { RunsRepository } from './domain/runs.repository.js';
import { assistantRoutes } from './routes/assistant.js';
import { chatRoutes } from './routes/chats.js';
import { openAiKeyRoutes } from './routes/openai-key.js';
import { runRoutes } from './routes/run.js';
import { usageRoutes } from './routes/usage.js';

export interface AiServiceOptions {
  /** The model behind the runs; the OpenAI SDK at OPENAI_BASE_URL by default. */
  model?: LanguageModel;
  /** The burst debounce of automatic answers; AUTO_REPLY_QUIET_MS of quiet per chat by default. */
  quietTimer?: QuietTimer;
}

/** A customer's lines that arrive within this much of each other get one answer. */
export const AUTO_REPLY_QUIET_MS = 4000;

/** The ai service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
export function createAiService(options: AiServiceOptions = {}): ServicePlugin {
  return async (fastify, { platform }) => {
    const app = fastify as unknown as App;
    await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
    requireAuth(app);
    const sql = platform.db.sql;
    const keys = new ProviderKeysService(new ProviderKeysRepository(sql), platform.secrets);
    const assistant = new AssistantConfigService(new AssistantConfigRepository(sql));
    const runs = new RunsRepository(sql);
    const model = options.model ?? new OpenAiLanguageModel({ ...OPENAI_DEFAULTS, baseURL: platform.config.OPENAI_BASE_URL });
    const bookings = new CustomerBookingsRepository(sql);
    const runner = new AssistantRunService({ sql, outbox: platform.outbox('ai'), keys, assistant, runs, bookings, services: platform.services, model });
    const chats = new ChatStateService(new ChatStatesRepository(sql), runs, assistant);
    const timer = options.quietTimer ?? new TimeoutQuietTimer(AUTO_REPLY_QUIET_MS);
    const consumer = new AutoReplyConsumer({ assistant, chats, runner, services: platform.services, timer, log: platform.log });
    await platform.bus.subscribe(AUTO_REPLY_CONSUMER, consumer.handle);
    app.addHook('onClose', () => timer.close());
    await openAiKeyRoutes(app, { keys });
    await assistantRoutes(app, { assistant });
    await runRoutes(app, { runner });
    await chatRoutes(app, { chats });
    await usageRoutes(app, { runs, assistant });
  };
}

const aiService: ServicePlugin = createAiService();

export default aiService;
