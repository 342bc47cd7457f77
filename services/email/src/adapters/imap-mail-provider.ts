import type { ImapFlow } from 'imapflow';
import type { Logger } from '@asistente/kit';
import type { CheckedServer } from '../domain/account.js';
import type { ImapAuth, MailProvider, MailSession, OutgoingMail, SmtpAuth } from '../domain/mail-provider.js';
import { closeImap, openImap } from './imap-client.js';
import { sendRaw, verifySmtp } from './smtp-client.js';

/** The mail port over IMAP (imapflow) and SMTP (nodemailer), for password and OAuth logins alike. */
export class ImapMailProvider implements MailProvider {
  /** The clients behind the sessions this provider opened, so closing one needs no cast. */
  private readonly clients = new WeakMap<MailSession, ImapFlow>();

  async open(server: CheckedServer, auth: ImapAuth, log?: Logger, options: { idle?: boolean } = {}): Promise<MailSession> {
    const client = await openImap(server, auth, log, options);
    this.clients.set(client, client);
    return client;
  }

  async close(session: MailSession): Promise<void> {
    const client = this.clients.get(session);
    if (!client) return;
    this.clients.delete(session);
    await closeImap(client);
  }

  verifySmtp(server: CheckedServer, auth: SmtpAuth): Promise<void> {
    return verifySmtp(server, auth);
  }

  send(server: CheckedServer, auth: SmtpAuth, envelope: { from: string; to: string[] }, raw: Buffer): Promise<void> {
    return sendRaw(server, auth, envelope, raw);
  }

  /** nodemailer's composer is loaded by the first mail written, not with the service. */
  async compose(mail: OutgoingMail): Promise<Buffer> {
    const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
    return new MailComposer(mail).compile().build();
  }
}
