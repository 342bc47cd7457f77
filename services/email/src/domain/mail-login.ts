import { badRequest, type Logger } from '@asistente/kit';
import type { CheckedServer, MailSecret, ServerSettings } from './account.js';
import type { LoginAttempts } from './login-attempts.js';
import { MailConnectError } from './mail-errors.js';
import type { MailTransport } from './mail-transport.js';
import type { MailboxProvider } from './mailbox.js';
import type { MailServers } from './mail-servers.js';

/**
 * Proving a mailbox's settings before anything is stored: both hosts through the guard first (a refused
 * one answers 400 with no connection to either), then both logins. A failure answers 400 in Spanish.
 */
export class MailLogin {
  constructor(
    private readonly servers: MailServers,
    private readonly attempts: LoginAttempts,
    private readonly log: Logger,
    private readonly mailboxes: MailboxProvider,
    private readonly transport: MailTransport,
  ) {}

  /** Passwords typed in the form: refused logins are limited per user and per target mailbox (429 beyond). */
  async withPassword(userId: string, imap: ServerSettings, smtp: ServerSettings, secret: MailSecret): Promise<void> {
    await answerInSpanish(async () => {
      const checked = await this.servers.check(imap, smtp);
      await this.attempts.limit(userId, [imap, smtp], () => this.both(checked.imap, checked.smtp, secret));
    });
  }

  /** A grant the provider just gave: its servers are the operator's settings, checked all the same. */
  async withGrant(imap: ServerSettings, smtp: ServerSettings, secret: MailSecret): Promise<void> {
    await answerInSpanish(async () => {
      const checked = await this.servers.check(imap, smtp);
      await this.both(checked.imap, checked.smtp, secret);
    });
  }

  private async both(imap: CheckedServer, smtp: CheckedServer, secret: MailSecret): Promise<void> {
    // Both at once, so a silent server costs one deadline (12 s), not two, and the answer stays within 15 s.
    const checkMailbox = async () => (await this.mailboxes.open({ imap, secret }, this.log)).close();
    const results = await Promise.allSettled([checkMailbox(), this.transport.verify({ smtp, secret })]);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  }
}

async function answerInSpanish(attempt: () => Promise<void>): Promise<void> {
  try {
    await attempt();
  } catch (error) {
    if (error instanceof MailConnectError) throw badRequest(error.message, 'MAIL_CONNECT_FAILED');
    throw error;
  }
}
