import { accountExportRoutes } from '@asistente/contracts';
import {
  accountExportRoute,
  authPlugin,
  FailureWindow,
  HostGuard,
  mountRetention,
  OAuthFlows,
  registerSecretColumns,
  registerUserErasure,
  requireAuth,
  retentionPreviewRoute,
  type App,
  type ServicePlugin,
} from '@asistente/kit';
import { EMAIL_SECRET_COLUMNS } from './domain/secret-columns.js';
import { ImapMailboxes } from './adapters/imap-mailbox.js';
import { MimeComposer } from './adapters/mime-composer.js';
import { SmtpTransport } from './adapters/smtp-transport.js';
import { OAuthProvider } from './adapters/oauth-provider.js';
import { emailExportParts } from './domain/account-export.js';
import { AccountExportRepository } from './domain/account-export.repository.js';
import { AccountsRepository } from './domain/accounts.repository.js';
import { AccountsService } from './domain/accounts.service.js';
import { AttachmentDownloads } from './domain/attachment-downloads.js';
import { Credentials } from './domain/credentials.js';
import { LoginAttempts } from './domain/login-attempts.js';
import { MailLogin } from './domain/mail-login.js';
import type { MailTransport } from './domain/mail-transport.js';
import type { MailboxProvider } from './domain/mailbox.js';
import { MailServers } from './domain/mail-servers.js';
import { MailboxSync } from './domain/mailbox-sync.js';
import { MessagesRepository } from './domain/messages.repository.js';
import { LeasesRepository } from './domain/leases.repository.js';
import { MessagesService } from './domain/messages.service.js';
import { countEmailRetention, EMAIL_RETENTION_STEPS } from './domain/retention.repository.js';
import { Personalizer } from './domain/personalize.js';
import { DraftsService } from './domain/drafts.js';
import { SendOnce } from './domain/send-once.js';
import { SendRequestsRepository } from './domain/send-requests.repository.js';
import { MailSender } from './domain/sender.js';
import { DEFAULT_LEASE, SyncManager, type LeaseTiming } from './domain/sync-manager.js';
import { TemplatesRepository } from './domain/templates.repository.js';
import { TemplatesService } from './domain/templates.service.js';
import { TrackingSigner } from './domain/tracking.js';
import { TrackingService } from './domain/tracking.service.js';
import { RecipientContacts } from './domain/variables.js';
import { registerEmailMetrics } from './metrics.js';
import { emailErasure } from './consumers/user-erasure.js';
import { integrationRoutes } from './routes/integrations.js';
import { messageRoutes } from './routes/messages.js';
import { templateRoutes } from './routes/templates.js';
import { trackingRoutes } from './routes/tracking.js';
import { settings } from './settings.js';

export interface EmailServiceOptions {
  lease?: Partial<LeaseTiming>;
  /** Whether this process is the only replica (default: embedded database, no DATABASE_URL). */
  exclusive?: boolean;
  /** Receives the sync manager, so tests can see which replica holds an account and kill one. */
  onSync?: (sync: SyncManager) => void;
  /** The mailbox port's provider (default: IMAP) and the transport's (default: SMTP). */
  mailboxes?: MailboxProvider;
  transport?: MailTransport;
}

export function createEmailService(options: EmailServiceOptions = {}): ServicePlugin {
  return async (fastify, { platform }) => {
    const app = fastify as unknown as App;
    await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
    requireAuth(app);
    const { config, log } = platform;
    const own = platform.settings(settings);
    const sql = platform.db.sql;
    registerEmailMetrics(platform);
    const outbox = platform.outbox('email');
    const publicUrl = config.PUBLIC_URL.replace(/\/$/, '');

    const oauth = {
      gmail: new OAuthProvider('gmail', own, `${publicUrl}/api/emails/integrations/gmail/callback`),
      outlook: new OAuthProvider('outlook', own, `${publicUrl}/api/emails/integrations/outlook/callback`),
    };
    // The owner is only told to ask the administrator; the administrator finds the setting names here.
    for (const [name, provider] of Object.entries(oauth)) {
      const missing = provider.missingSettings();
      if (missing) log.info({ provider: name }, `${name} not configured: set ${missing} to connect it`);
    }
    const oauthFlows = new OAuthFlows(platform.tokens.secret, sql, 'email');
    const flows = {
      gmail: oauthFlows.flow('email-gmail', oauth.gmail.redirectUri),
      outlook: oauthFlows.flow('email-outlook', oauth.outlook.redirectUri),
    };
    const accountsRepository = new AccountsRepository(sql);
    const messagesRepository = new MessagesRepository(sql);
    // Every connection to a mail server goes through the guard: resolved once, private addresses refused.
    const servers = new MailServers(new HostGuard(config.ALLOWED_PRIVATE_ADDRESSES));
    const credentials = new Credentials(platform.secrets, accountsRepository, oauth, servers);
    // The mail ports: mailboxes over IMAP (imapflow), sending over SMTP and writing mail with nodemailer.
    const mailboxes = options.mailboxes ?? new ImapMailboxes();
    const transport = options.transport ?? new SmtpTransport();
    const composer = new MimeComposer();
    // Refused logins per user and per target mailbox, shared by every replica.
    const loginFailures = new FailureWindow(sql, 'email.login_failures');
    const login = new MailLogin(servers, new LoginAttempts(loginFailures), log, mailboxes, transport);
    const mailboxSync = new MailboxSync(
      sql,
      messagesRepository,
      outbox,
      { days: own.EMAIL_SYNC_DAYS, maxPerFolder: own.EMAIL_SYNC_MAX_PER_FOLDER },
      log,
      accountsRepository,
    );
    const sync = new SyncManager(
      accountsRepository,
      new LeasesRepository(sql),
      messagesRepository,
      credentials,
      mailboxSync,
      log,
      { ...DEFAULT_LEASE, ...options.lease },
      // Without a database URL the process runs on its own embedded database: it is the only replica.
      options.exclusive ?? !config.DATABASE_URL,
      mailboxes,
    );
    options.onSync?.(sync);
    const signer = new TrackingSigner(platform.tokens.secret);
    const contacts = new RecipientContacts(platform.services, log);
    const personalizer = new Personalizer(contacts);
    const messages = new MessagesService(
      messagesRepository,
      accountsRepository,
      credentials,
      sync,
      log,
      new AttachmentDownloads(credentials, log, mailboxes),
      own.MAIL_MAX_MESSAGE_BYTES,
      mailboxes,
    );
    const sender = new MailSender(
      sql,
      accountsRepository,
      messagesRepository,
      messages,
      credentials,
      sync,
      outbox,
      signer,
      `${publicUrl}/api/emails/track`,
      log,
      new SendOnce(new SendRequestsRepository(sql)),
      personalizer,
      composer,
      transport,
      mailboxes,
    );

    await integrationRoutes(app, {
      accounts: new AccountsService(accountsRepository, credentials, sync, login, own.MAIL_MAX_ACCOUNTS, outbox),
      oauth,
      flows,
      screenUrl: `${publicUrl}/emails`,
      log,
    });
    await registerUserErasure(platform, emailErasure({ accounts: accountsRepository, credentials, sync, loginFailures, revokers: oauth, log }));
    // Its sealed columns, where key rotation (`asistente admin rotate-keys`) finds them.
    await registerSecretColumns(platform.db.sql, EMAIL_SECRET_COLUMNS);
    await templateRoutes(app, { templates: new TemplatesService(new TemplatesRepository(sql), contacts), personalizer });
    accountExportRoute(app, accountExportRoutes.email, emailExportParts(new AccountExportRepository(sql), composer), 'person');
    await trackingRoutes(app, { tracking: new TrackingService(sql, outbox, signer) });
    const drafts = new DraftsService(accountsRepository, messagesRepository, messages, credentials, sync, log, mailboxes, composer);
    await messageRoutes(app, { messages, sender, drafts });

    // The owner's "Conservación de datos": bodies of older mails erased daily, once per deployment.
    const retention = await mountRetention({ sql, bus: platform.bus, log, schema: 'email', kind: 'emailBodyDays', steps: EMAIL_RETENTION_STEPS });
    app.addHook('onReady', async () => retention.start());
    app.addHook('onClose', async () => retention.stop());
    retentionPreviewRoute(app, '/emails', sql, countEmailRetention, 'person');
    // Leases are taken once the app listens, and released before the database closes.
    app.addHook('onReady', async () => {
      sync.startAll();
    });
    app.addHook('onClose', async () => {
      await sync.close();
    });
  };
}

/** The email service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const emailService: ServicePlugin = createEmailService();

export default emailService;
export * from './domain/secret-columns.js';
export { settings } from './settings.js';
