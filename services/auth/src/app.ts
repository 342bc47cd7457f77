import rateLimit from '@fastify/rate-limit';
import { authPlugin, EventValidator, FailureWindow, registerSecretColumns, registerUserErasure, requireAuth, type App, type ServicePlugin } from '@asistente/kit';
import { AUTH_SECRET_COLUMNS } from './domain/secret-columns.js';
import { settings } from './settings.js';
import { createSystemMailer, systemSender } from './adapters/system-mailer.js';
import { HashingGate } from './domain/hashing-gate.js';
import { PasswordAttempts } from './domain/password-attempts.js';
import { PasswordResetsRepository } from './domain/password-resets.repository.js';
import { PasswordResetsService } from './domain/password-resets.service.js';
import { PasswordHasher } from './domain/passwords.js';
import { UsersRepository } from './domain/users.repository.js';
import { UsersService } from './domain/users.service.js';
import { authRoutes } from './routes/auth.js';
import { workspaceRoutes } from './routes/workspace.js';
import { invitationRoutes } from './routes/invitations.js';
import { InvitationsRepository } from './domain/invitations.repository.js';
import { InvitationsService } from './domain/invitations.service.js';
import { MembersService } from './domain/members.service.js';
import { WorkspacesRepository } from './domain/workspaces.repository.js';
import { WorkspacesService } from './domain/workspaces.service.js';
import { passwordResetRoutes } from './routes/password-reset.js';
import { accountActivityRoutes } from './routes/account-activity.js';
import { SECURITY_ACTIVITY_CONSUMER, SecurityActivityConsumer } from './consumers/security-activity.consumer.js';
import { SecurityActivityRepository } from './domain/security-activity.repository.js';
import { schedulePurge } from './domain/security-activity-purge.js';
import { RetentionService } from './domain/retention.service.js';
import { accountRetentionRoutes } from './routes/account-retention.js';
import { PersonalTokensRepository } from './domain/personal-tokens.repository.js';
import { PersonalTokensService } from './domain/personal-tokens.service.js';
import { personalTokenRoutes } from './routes/personal-tokens.js';
import { AccountDeletionsRepository } from './domain/account-deletions.repository.js';
import { AccountDeletionService } from './domain/account-deletion.service.js';
import { accountDeletionRoutes } from './routes/account-deletion.js';
import { ERASURE_PROGRESS_CONSUMER, ErasureProgressConsumer } from './consumers/erasure-progress.consumer.js';
import { AccountExportBuilder } from './domain/account-export.builder.js';
import { scheduleExportPurge } from './domain/account-export-purge.js';
import { AccountExportService } from './domain/account-export.service.js';
import { authSource, SERVICE_PARTS, serviceSource } from './domain/account-export-sources.js';
import { AccountExportsRepository } from './domain/account-exports.repository.js';
import { SecurityActivityExportRepository } from './domain/security-activity-export.repository.js';
import { accountExportRoutes } from './routes/account-export.js';

/** Wrong passwords one client address may try, as a multiple of one account's (the gateway's login ratio). */
const PER_ADDRESS_FACTOR = 5;

/** The auth service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const authService: ServicePlugin = async (fastify, { platform }) => {
  const app = fastify as unknown as App;
  const { config, db, revocations } = platform;
  const own = platform.settings(settings);
  await app.register(authPlugin, { tokens: platform.tokens, revocations });
  await app.register(rateLimit, { global: false });
  requireAuth(app);
  const usersRepository = new UsersRepository(db.sql);
  const hasher = new PasswordHasher(own.SCRYPT_COST, new HashingGate(own.HASH_CONCURRENCY, own.HASH_QUEUE_MAX));
  const outbox = platform.outbox('auth');
  // Every password check (login, password change, account deletion) spends one budget of wrong guesses.
  const attempts = new PasswordAttempts(new FailureWindow(db.sql, 'auth.password_failures'), {
    perAccount: own.RATE_LIMIT_LOGIN_MAX,
    perAddress: own.RATE_LIMIT_LOGIN_MAX * PER_ADDRESS_FACTOR,
    windowMs: own.RATE_LIMIT_WINDOW_MS,
  });
  const tokensRepository = new PersonalTokensRepository(db.sql);
  const workspacesRepository = new WorkspacesRepository(db.sql);
  const workspaces = new WorkspacesService(db.sql, workspacesRepository);
  const users = new UsersService({ sql: db.sql, users: usersRepository, hasher, outbox, attempts, tokens: tokensRepository, revocations, workspaces });
  await authRoutes(app, { users, workspaces, revocations });
  const invitations = new InvitationsService({
    sql: db.sql,
    invitations: new InvitationsRepository(db.sql),
    workspaces: workspacesRepository,
    users: usersRepository,
    hasher,
    secrets: platform.secrets,
    outbox,
    mailer: own.SMTP_URL ? createSystemMailer(own.SMTP_URL, systemSender(own.MAIL_FROM, config.PUBLIC_URL)) : undefined,
    publicUrl: config.PUBLIC_URL,
    maxMembers: own.MAX_WORKSPACE_MEMBERS,
    log: platform.log,
  });
  app.addHook('onClose', () => invitations.close());
  const members = new MembersService({ sql: db.sql, outbox, workspaces: workspacesRepository, users: usersRepository, tokens: tokensRepository, revocations, hasher, attempts });
  await workspaceRoutes(app, { users, workspaces, members, invitations });
  await invitationRoutes(app, { invitations });
  const resets = new PasswordResetsService({
    sql: db.sql,
    users: usersRepository,
    resets: new PasswordResetsRepository(db.sql),
    hasher,
    outbox,
    tokens: tokensRepository,
    revocations,
    mailer: own.SMTP_URL ? createSystemMailer(own.SMTP_URL, systemSender(own.MAIL_FROM, config.PUBLIC_URL)) : undefined,
    publicUrl: config.PUBLIC_URL,
    log: platform.log,
  });
  await passwordResetRoutes(app, {
    resets,
    forgotLimit: { max: own.RATE_LIMIT_PASSWORD_RESET_MAX, timeWindow: own.RATE_LIMIT_PASSWORD_RESET_WINDOW_MS },
  });
  // The security log: every service's lines (auth's own too) arrive through the outbox and the bus.
  const activity = new SecurityActivityRepository(db.sql);
  await platform.bus.subscribe(SECURITY_ACTIVITY_CONSUMER, new SecurityActivityConsumer(db.sql, activity, platform.log, new EventValidator()).handle);
  const stopPurge = schedulePurge(activity, platform.log);
  app.addHook('onClose', stopPurge);
  await accountActivityRoutes(app, { activity });
  await accountRetentionRoutes(app, { retention: new RetentionService(db.sql, outbox) });
  await personalTokenRoutes(app, { tokens: new PersonalTokensService({ sql: db.sql, tokens: tokensRepository, outbox, revocations }) });
  // "Eliminar mi cuenta": the request ends the account at once; the services' reports arrive through the bus.
  const deletionRecords = new AccountDeletionsRepository(db.sql);
  await accountDeletionRoutes(app, {
    deletions: new AccountDeletionService({
      sql: db.sql,
      users: usersRepository,
      workspaces: workspacesRepository,
      deletions: deletionRecords,
      hasher,
      attempts,
      outbox,
      revocations,
    }),
  });
  // "Descargar mis datos": auth's own part, then each service's over HTTP, into one ZIP stored in chunks.
  const exportsRepository = new AccountExportsRepository(db.sql);
  const builder = new AccountExportBuilder({
    exports: exportsRepository,
    sources: [authSource(usersRepository, new SecurityActivityExportRepository(db.sql)), ...SERVICE_PARTS.map((part) => serviceSource(platform.services, part))],
    log: platform.log,
  });
  app.addHook('onClose', () => builder.close());
  app.addHook('onClose', scheduleExportPurge(exportsRepository, platform.log));
  await accountExportRoutes(app, { exports: new AccountExportService({ sql: db.sql, exports: exportsRepository, builder, outbox }) });
  await platform.bus.subscribe(ERASURE_PROGRESS_CONSUMER, new ErasureProgressConsumer(db.sql, deletionRecords, platform.log).handle);
  // Auth's own part: whatever still names the user in auth and platform (the outbox; what no cascade reached).
  await registerUserErasure(platform, { service: 'auth', schemas: ['auth', 'platform'] });
  // Its sealed columns, where key rotation (`asistente admin rotate-keys`) finds them.
  await registerSecretColumns(platform.db.sql, AUTH_SECRET_COLUMNS);
};

export default authService;
export * from './domain/secret-columns.js';
export { settings } from './settings.js';
