import { accountExportRoutes } from '@asistente/contracts';
import { accountExportRoute, authPlugin, conflict, mountRetention, registerSecretColumns, registerUserErasure, requireAuth, retentionPreviewRoute, type App, type ServicePlugin } from '@asistente/kit';
import { WHATSAPP_SECRET_COLUMNS } from './domain/secret-columns.js';
import { whatsappExportParts } from './domain/account-export.js';
import { whatsappErasure } from './consumers/user-erasure.js';
import { AccountExportRepository } from './domain/account-export.repository.js';
import { BaileysConnector, type MakeSocket } from './adapters/baileys-connector.js';
import type { SocketFactory } from './domain/whatsapp-socket.js';
import { DEFAULT_TIMING, type SessionTiming } from './domain/account-session.js';
import { AccountsRepository } from './domain/accounts.repository.js';
import { AuthStateRepository } from './domain/auth-state.repository.js';
import { AutoRepliesRepository } from './domain/auto-replies.repository.js';
import { AutoRepliesService } from './domain/auto-replies.service.js';
import { ContactsSyncService } from './domain/contacts-sync.service.js';
import { ConversationsService } from './domain/conversations.service.js';
import { InboundService } from './domain/inbound.service.js';
import { MessagesRepository } from './domain/messages.repository.js';
import { OutboundService, type Pacing } from './domain/outbound.service.js';
import { countWhatsAppRetention, WHATSAPP_RETENTION_STEPS } from './domain/retention.repository.js';
import { DEFAULT_LEASE, SessionManager, type LeaseTiming } from './domain/session-manager.js';
import { autoReplyRoutes } from './routes/auto-replies.js';
import { connectionRoutes } from './routes/connection.js';
import { messageRoutes } from './routes/messages.js';
import { chatHandlesRoutes } from './routes/chat-handles.js';
import { messagesByIdRoutes } from './routes/messages-by-id.js';
import { registerWhatsAppMetrics } from './metrics.js';
import { CloudApiProvider, type CloudTiming } from './adapters/cloud-api/cloud-provider.js';
import type { GraphTiming } from './adapters/cloud-api/graph-client.js';
import { ServiceIntake } from './domain/cloud-intake.js';
import { cloudRoutes } from './routes/cloud.js';
import { cloudWebhookRoutes } from './routes/cloud-webhook.js';
import { settings } from './settings.js';

export interface WhatsAppServiceOptions {
  /** Replaces the real socket (tests: a fake built on Baileys' makeEventBuffer). */
  makeSocket?: MakeSocket;
  /** Replaces the whole socket factory (tests). */
  factory?: SocketFactory;
  timing?: Partial<SessionTiming>;
  /** Replaces WHATSAPP_AUTOMATED_GAP_MS (tests). */
  pacing?: Pacing;
  lease?: Partial<LeaseTiming>;
  connectTimeoutMs?: number;
  /** Whether this process is the only replica (default: embedded database, no DATABASE_URL). */
  exclusive?: boolean;
  /** Receives the session manager, so tests can wait for a socket's work to finish. */
  onSessions?: (sessions: SessionManager) => void;
  /** The Cloud API's timings (tests shorten them). */
  cloudTiming?: Partial<CloudTiming>;
  graphTiming?: Partial<GraphTiming>;
  /** Receives the Cloud API provider, so tests can wait for its work. */
  onCloud?: (cloud: CloudApiProvider) => void;
}

/** Connecting the Cloud API while a phone is linked over WhatsApp Web: one number, one provider. */
export const PHONE_LINKED =
  'WhatsApp ya está vinculado con un teléfono (código QR). Desvincúlalo antes de conectar la API oficial de WhatsApp';

/**
 * WHATSAPP_TEST_SOCKET_MODULE (tests only, never set in production): a module whose `makeSocket` export
 * replaces Baileys' socket, so the browser tests can drive the built server without a phone.
 */
async function testSocketFromEnv(): Promise<MakeSocket | undefined> {
  const path = process.env.WHATSAPP_TEST_SOCKET_MODULE;
  if (!path) return undefined;
  const module = (await import(path)) as { makeSocket: MakeSocket };
  return module.makeSocket;
}

export function createWhatsAppService(options: WhatsAppServiceOptions = {}): ServicePlugin {
  return async (fastify, { platform }) => {
    const app = fastify as unknown as App;
    await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
    requireAuth(app);
    const { sql } = platform.db;
    const log = platform.log.child({ service: 'whatsapp' });
    const outbox = platform.outbox('whatsapp');
    const own = platform.settings(settings);
    const makeSocket = options.makeSocket ?? (await testSocketFromEnv());
    const factory =
      options.factory ??
      new BaileysConnector({ log, webSocketUrl: own.WHATSAPP_WS_URL, connectTimeoutMs: options.connectTimeoutMs, ...(makeSocket ? { makeSocket } : {}) });
    const newMessageId = () => factory.newMessageId();

    const accounts = new AccountsRepository(sql, outbox);
    const authState = new AuthStateRepository(sql, platform.secrets);
    const messages = new MessagesRepository(sql, registerWhatsAppMetrics(platform));
    const autoRepliesRepo = new AutoRepliesRepository(sql);
    const inbound = new InboundService(sql, messages, autoRepliesRepo, outbox, newMessageId, !platform.config.DATABASE_URL);
    const pacing = options.pacing ?? { automatedGapMs: own.WHATSAPP_AUTOMATED_GAP_MS };
    const outbound = new OutboundService(sql, messages, accounts, outbox, newMessageId, log, pacing);
    const timing = {
      ...DEFAULT_TIMING,
      giveUpAttempts: own.WHATSAPP_CONNECT_MAX_ATTEMPTS,
      giveUpMs: own.WHATSAPP_CONNECT_MAX_MS,
      ...options.timing,
    };
    const sessions = new SessionManager(
      { factory, accounts, authState, messages, inbound, outbound, box: platform.secrets, log, timing },
      { ...DEFAULT_LEASE, ...options.lease },
      // Without a database URL the process runs on its own embedded database: it is the only replica.
      options.exclusive ?? !platform.config.DATABASE_URL,
    );
    options.onSessions?.(sessions);

    const cloud = new CloudApiProvider({
      sql,
      secrets: platform.secrets,
      outbox,
      intake: new ServiceIntake(inbound, messages),
      log,
      apiUrl: own.WHATSAPP_CLOUD_API_URL,
      appSecret: own.WHATSAPP_CLOUD_APP_SECRET,
      graph: options.graphTiming,
      timing: options.cloudTiming,
      outbound,
      messages,
      mayConnect: async (workspaceId) => {
        const account = await accounts.find(workspaceId);
        if (account?.linked) throw conflict(PHONE_LINKED, 'WHATSAPP_PHONE_LINKED');
        // A QR being shown (nothing linked yet) gives way to the Cloud number.
        if (account?.wanted) await sessions.disconnect(workspaceId);
      },
    });
    options.onCloud?.(cloud);

    await connectionRoutes(app, { sessions, cloud });
    await cloudRoutes(app, { cloud, outbound });
    await cloudWebhookRoutes(app, { cloud, verifyToken: own.WHATSAPP_CLOUD_VERIFY_TOKEN });
    await registerUserErasure(platform, whatsappErasure(sessions));
    // Its sealed columns, where key rotation (`asistente admin rotate-keys`) finds them.
    await registerSecretColumns(platform.db.sql, WHATSAPP_SECRET_COLUMNS);
    const conversations = new ConversationsService(messages, accounts);
    await messageRoutes(app, {
      conversations,
      outbound,
      sessions,
      cloud,
      contactsSync: new ContactsSyncService(sql, messages, accounts, platform.services, outbox),
    });
    await messagesByIdRoutes(app, { conversations });
    await chatHandlesRoutes(app, { conversations });
    await autoReplyRoutes(app, { autoReplies: new AutoRepliesService(autoRepliesRepo) });
    accountExportRoute(app, accountExportRoutes.whatsapp, whatsappExportParts(new AccountExportRepository(sql)));

    // The owner's "Conservación de datos": older messages erased daily, once per deployment.
    const retention = await mountRetention({ sql, bus: platform.bus, log, schema: 'whatsapp', kind: 'whatsappDays', steps: WHATSAPP_RETENTION_STEPS });
    app.addHook('onReady', async () => retention.start());
    app.addHook('onClose', async () => retention.stop());
    retentionPreviewRoute(app, '/whatsapp', sql, countWhatsAppRetention);
    app.addHook('onReady', async () => sessions.start());
    app.addHook('onReady', async () => cloud.start());
    app.addHook('preClose', async () => sessions.close());
    app.addHook('preClose', async () => cloud.close());
  };
}

/** The whatsapp service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const whatsappService: ServicePlugin = createWhatsAppService();

export default whatsappService;
export * from './domain/secret-columns.js';
export { settings } from './settings.js';
