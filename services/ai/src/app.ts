import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { accountExportRoutes } from '@asistente/contracts';
import {
  accountExportRoute,
  authPlugin,
  EventValidator,
  mountRetention,
  PersonalTokenBudget,
  registerSecretColumns,
  registerUserErasure,
  requireAuth,
  retentionPreviewRoute,
  type App,
  type ServicePlugin,
} from '@asistente/kit';
import { AI_SECRET_COLUMNS } from './domain/secret-columns.js';
import { OPENAI_DEFAULTS, OpenAiLanguageModel } from './adapters/openai.js';
import type { LanguageModel } from './domain/language-model.js';
import { AUTO_REPLY_CONSUMER, AutoReplyConsumer } from './consumers/auto-reply.consumer.js';
import { PollingBurstClock, type BurstClock } from './consumers/burst-clock.js';
import { BurstAnswerer } from './consumers/burst-answer.js';
import { BurstScheduler } from './consumers/burst-scheduler.js';
import { aiExportParts } from './domain/account-export.js';
import { AccountExportRepository } from './domain/account-export.repository.js';
import { AssistantConfigRepository } from './domain/assistant-config.repository.js';
import { AssistantConfigService } from './domain/assistant-config.service.js';
import { AssistantRunService } from './domain/assistant-run.service.js';
import { ChatStateService } from './domain/chat-state.service.js';
import { ChatSwitch } from './domain/chat-switch.js';
import { ChatStatesRepository } from './domain/chat-states.repository.js';
import { ChatBurstsRepository } from './domain/chat-bursts.repository.js';
import { InboxConversations } from './domain/inbox-conversation.js';
import { startMovingLegacyPauses } from './domain/legacy-chat-keys.js';
import { handlesOfJids } from './domain/whatsapp-handles.js';
import { CustomerBookingsRepository } from './domain/customer-bookings.repository.js';
import { McpTools } from './domain/mcp/mcp-tools.js';
import { ProviderKeysRepository } from './domain/provider-keys.repository.js';
import { ProviderKeysService } from './domain/provider-keys.service.js';
import { RunsRepository } from './domain/runs.repository.js';
import { AI_RETENTION_STEPS, countAiRetention } from './domain/retention.repository.js';
import { assistantRoutes } from './routes/assistant.js';
import { chatRoutes } from './routes/chats.js';
import { mcpRoutes } from './routes/mcp.js';
import { openAiKeyRoutes } from './routes/openai-key.js';
import { runRoutes } from './routes/run.js';
import { suggestionRoutes } from './routes/suggestions.js';
import { usageRoutes } from './routes/usage.js';
import { registerAiMetrics } from './metrics.js';
import { settings } from './settings.js';

export interface AiServiceOptions {
  /** The model behind the runs; the OpenAI SDK at OPENAI_BASE_URL by default. */
  model?: LanguageModel;
  /** The bursts of automatic answers (tests: a clock they drive, shorter waits, a replica name). */
  autoReply?: Partial<AutoReplyTiming> & { clock?: BurstClock; replica?: string };
}

export interface AutoReplyTiming {
  /** A customer's lines that arrive within this much of each other get one answer. */
  quietMs: number;
  /** How often a replica looks for due bursts and renews its leases; well within leaseMs. */
  pollMs: number;
  /**
   * How long a claimed burst stays with its replica without renewal: a replica that dies mid-answer has its
   * burst answered by another within quietMs + leaseMs + pollMs (≤ quiet + 10 s with the defaults).
   */
  leaseMs: number;
}

export const AUTO_REPLY_TIMING: AutoReplyTiming = { quietMs: 4000, pollMs: 1000, leaseMs: 8000 };

/** The ai service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
export function createAiService(options: AiServiceOptions = {}): ServicePlugin {
  return async (fastify, { platform }) => {
    const app = fastify as unknown as App;
    await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
    requireAuth(app);
    const sql = platform.db.sql;
    const outbox = platform.outbox('ai');
    const keys = new ProviderKeysService(new ProviderKeysRepository(sql), platform.secrets, sql, outbox);
    const assistant = new AssistantConfigService(new AssistantConfigRepository(sql));
    const runs = new RunsRepository(sql);
    const model = registerAiMetrics(platform, options.model ?? new OpenAiLanguageModel({ ...OPENAI_DEFAULTS, baseURL: platform.settings(settings).OPENAI_BASE_URL }));
    const bookings = new CustomerBookingsRepository(sql);
    const runner = new AssistantRunService({ sql, outbox, keys, assistant, runs, bookings, services: platform.services, model });
    const states = new ChatStatesRepository(sql);
    const chats = new ChatStateService(states, runs, assistant);
    const timing = { ...AUTO_REPLY_TIMING, ...options.autoReply };
    const clock = options.autoReply?.clock ?? new PollingBurstClock(timing.pollMs);
    const bursts = new ChatBurstsRepository(sql);
    const inbox = new InboxConversations(platform.services);
    const answerer = new BurstAnswerer({ assistant, chats, runner, inbox, log: platform.log });
    const replica = options.autoReply?.replica ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    clock.start(new BurstScheduler({ bursts, answer: (burst) => answerer.answer(burst), replica, leaseMs: timing.leaseMs, log: platform.log }));
    const consumer = new AutoReplyConsumer({
      bursts,
      chats,
      chatKeyOf: (workspaceId, conversationId) => inbox.chatKey(workspaceId, conversationId),
      clock,
      quietMs: timing.quietMs,
      events: new EventValidator(),
    });
    await platform.bus.subscribe(AUTO_REPLY_CONSUMER, consumer.handle);
    // "Eliminar mi cuenta": the sealed OpenAI key, configuration, runs, chat states, bursts and bookings.
    await registerUserErasure(platform, { service: 'ai' });
    // Its sealed columns, where key rotation (`asistente admin rotate-keys`) finds them.
    await registerSecretColumns(platform.db.sql, AI_SECRET_COLUMNS);
    app.addHook('onClose', () => clock.close());
    // Pauses kept under WhatsApp JIDs before the inbox: moved to their chat keys once the siblings answer.
    let legacyPauses: { stop(): Promise<void> } | undefined;
    app.addHook('onReady', async () => {
      legacyPauses = startMovingLegacyPauses({ states, handlesOf: (caller, jids) => handlesOfJids(platform.services, caller, jids), log: platform.log });
    });
    app.addHook('onClose', async () => legacyPauses?.stop());
    // The owner's "Conservación de datos": older runs erased daily, once per deployment.
    const retention = await mountRetention({ sql, bus: platform.bus, log: platform.log, schema: 'ai', kind: 'aiRunDays', steps: AI_RETENTION_STEPS });
    app.addHook('onReady', async () => retention.start());
    app.addHook('onClose', async () => retention.stop());
    retentionPreviewRoute(app, '/ai', sql, countAiRetention);
    await openAiKeyRoutes(app, { keys });
    await assistantRoutes(app, { assistant });
    await runRoutes(app, { runner });
    await suggestionRoutes(app, { runner });
    await chatRoutes(app, { chats: new ChatSwitch(chats, platform.services) });
    await usageRoutes(app, { runs, assistant });
    await mcpRoutes(app, { tools: new McpTools({ services: platform.services, bookings }), budget: new PersonalTokenBudget(sql, platform.config.RATE_LIMIT_TOKEN_MAX) });
    accountExportRoute(app, accountExportRoutes.ai, aiExportParts(new AccountExportRepository(sql)));
  };
}

const aiService: ServicePlugin = createAiService();

export default aiService;
export * from './domain/secret-columns.js';
export { settings } from './settings.js';
