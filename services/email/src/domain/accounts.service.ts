import type { EmailIntegration, ImapIntegrationBody } from '@asistente/contracts';
import { badRequest, conflict, notFound, securityActivityEvent, type AppError, type Outbox, type SecurityClient } from '@asistente/kit';
import type { MailGrantProvider, TokenSet } from './mail-oauth.js';
import { toIntegration, type AccountRow, type MailSecret, type ServerSettings } from './account.js';
import { AccountLimitReached, type AccountsRepository, type NewAccount } from './accounts.repository.js';
import type { Credentials } from './credentials.js';
import type { MailLogin } from './mail-login.js';
import type { SyncManager } from './sync-manager.js';

/** Connecting, listing and forgetting mailboxes. */
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly credentials: Credentials,
    private readonly sync: SyncManager,
    private readonly login: MailLogin,
    /** MAIL_MAX_ACCOUNTS: mailboxes one user may connect. */
    private readonly maxAccounts: number,
    /** Connecting and disconnecting a mailbox are lines of the owner's security log, written with the change. */
    private readonly outbox: Outbox,
  ) {}

  async list(userId: string): Promise<EmailIntegration[]> {
    return (await this.accounts.list(userId)).map(toIntegration);
  }

  /** The form's "probar conexión": both logins, nothing stored. */
  async test(userId: string, body: ImapIntegrationBody): Promise<void> {
    const { imapServer, smtpServer, secret } = passwordAccount(body);
    await this.login.withPassword(userId, imapServer, smtpServer, secret);
  }

  /** Logs in to both servers first: a wrong password or host answers 400 (429 after too many) and nothing is stored. */
  async connectImap(userId: string, body: ImapIntegrationBody, client: SecurityClient): Promise<EmailIntegration> {
    const { email } = body.credentials;
    const { imapServer, smtpServer, secret } = passwordAccount(body);
    await this.ensureRoom(userId, { provider: 'imap', email: email.trim() });
    await this.login.withPassword(userId, imapServer, smtpServer, secret);
    const row = await this.store(userId, {
      provider: 'imap',
      email: email.trim(),
      imap: imapServer,
      smtp: smtpServer,
      credentialsEnc: this.credentials.seal(userId, secret),
    }, client);
    await this.sync.start(row.id);
    return toIntegration(row);
  }

  /** The OAuth callback's end: tokens sealed, the XOAUTH2 login tried, the account saved either way. */
  async connectOAuth(userId: string, provider: MailGrantProvider, tokens: TokenSet, client: SecurityClient): Promise<EmailIntegration> {
    const email = tokens.email;
    if (!email) throw badRequest('El proveedor no indicó la dirección de correo de la cuenta');
    const imapServer: ServerSettings = { ...provider.imap, user: email };
    const smtpServer: ServerSettings = { ...provider.smtp, user: email };
    const secret: MailSecret = { kind: 'oauth', accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt };
    await this.ensureRoom(userId, { provider: provider.name, email });
    await this.login.withGrant(imapServer, smtpServer, secret);
    const row = await this.store(userId, {
      provider: provider.name,
      email,
      imap: imapServer,
      smtp: smtpServer,
      credentialsEnc: this.credentials.seal(userId, secret),
    }, client);
    await this.sync.start(row.id);
    return toIntegration(row);
  }

  /** The account's open and click tracking, the owner's choice; each mail can still say otherwise. */
  async setTracking(userId: string, id: string, tracking: boolean): Promise<EmailIntegration> {
    const row = await this.accounts.setTracking(userId, id, tracking);
    if (!row) throw notFound('Cuenta de correo no encontrada');
    return toIntegration(row);
  }

  async disconnect(userId: string, id: string, client: SecurityClient): Promise<void> {
    const row = await this.accounts.find(userId, id);
    if (!row) throw notFound('Cuenta de correo no encontrada');
    await this.sync.stop(id);
    await this.accounts.delete(userId, id, (tx, email) =>
      this.outbox.append(tx, [securityActivityEvent(userId, 'provider.disconnected', client, { provider: 'email', account: email })]),
    );
  }

  /** Refused before any login, so a user at the limit opens no connection to any server. */
  private async ensureRoom(userId: string, account: Pick<NewAccount, 'provider' | 'email'>): Promise<void> {
    if (await this.accounts.full(userId, account, this.maxAccounts)) throw this.tooMany();
  }

  /** The limit checked again where it holds under concurrent connects: in the insert's transaction. */
  private async store(userId: string, account: NewAccount, client: SecurityClient): Promise<AccountRow> {
    const logged = (tx: Parameters<Outbox['append']>[0], row: AccountRow) =>
      this.outbox.append(tx, [securityActivityEvent(userId, 'provider.connected', client, { provider: 'email', account: row.email })]);
    return this.accounts.upsert(userId, account, this.maxAccounts, logged).catch((error: unknown) => {
      throw error instanceof AccountLimitReached ? this.tooMany() : error;
    });
  }

  private tooMany(): AppError {
    return conflict(`Has alcanzado el máximo de ${this.maxAccounts} cuentas de correo`, 'MAIL_ACCOUNTS_LIMIT');
  }
}

function passwordAccount(body: ImapIntegrationBody): { imapServer: ServerSettings; smtpServer: ServerSettings; secret: MailSecret } {
  const { imap, smtp } = body.credentials;
  return {
    imapServer: { host: imap.host, port: imap.port, secure: imap.secure, user: imap.user },
    smtpServer: { host: smtp.host, port: smtp.port, secure: smtp.secure, user: smtp.user },
    secret: { kind: 'password', imapPassword: imap.password, smtpPassword: smtp.password },
  };
}
