import { traceClientCall } from '@asistente/kit';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { CheckedServer } from '../domain/account.js';
import { connectionReason, withDeadline } from '../domain/connect-errors.js';
import { MailConnectError } from '../domain/mail-errors.js';
import type { MailEnvelope, MailTransport, TransportLogin } from '../domain/mail-transport.js';
import { CONNECT_DEADLINE_MS } from './imap-client.js';

export type SmtpAuth = { user: string; pass: string } | { type: 'OAuth2'; user: string; accessToken: string };

/** The SMTP login of an account: its SMTP password, or its OAuth access token (XOAUTH2). */
export function smtpAuth({ smtp, secret }: TransportLogin): SmtpAuth {
  return secret.kind === 'password' ? { user: smtp.user, pass: secret.smtpPassword } : { type: 'OAuth2', user: smtp.user, accessToken: secret.accessToken };
}

/** nodemailer is loaded by the first send or check, not with the service: an install without a mailbox never needs it. */
async function createSmtpTransport(settings: CheckedServer, auth: SmtpAuth): Promise<Transporter<SMTPTransport.SentMessageInfo>> {
  const { default: nodemailer } = await import('nodemailer');
  const { target } = settings;
  return nodemailer.createTransport({
    // The address the guard checked, so no second DNS answer is asked; the certificate is checked for the name.
    host: target.address,
    servername: target.servername,
    port: settings.port,
    secure: settings.secure,
    // A password never crosses the network in clear: STARTTLS is required except on the operator's own
    // network (ALLOWED_PRIVATE_ADDRESSES), where it is used when offered.
    requireTLS: !settings.secure && !target.plaintextAllowed,
    auth,
    connectionTimeout: 8_000,
    greetingTimeout: 5_000,
    socketTimeout: 60_000,
  });
}

/** The Message-ID header of a raw message (unfolded), the id an SMTP-sent mail is known by. */
function headerMessageId(raw: Buffer): string | undefined {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end === -1 ? Math.min(raw.length, 64 * 1024) : end).toString('latin1');
  return /^message-id:[ \t]*((?:.*)(?:\r?\n[ \t].*)*)/im.exec(head)?.[1]?.replace(/\s+/g, '').trim() || undefined;
}

const timeout = () => Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' });

/** The mail transport over SMTP (nodemailer), for password and OAuth logins alike: one connection per call. */
export class SmtpTransport implements MailTransport {
  async verify(login: TransportLogin): Promise<void> {
    const { smtp } = login;
    const transport = await createSmtpTransport(smtp, smtpAuth(login));
    try {
      await withDeadline(transport.verify(), CONNECT_DEADLINE_MS, timeout);
    } catch (error) {
      throw new MailConnectError('SMTP', connectionReason(error, smtp.host, smtp.port), (error as { code?: string }).code === 'EAUTH');
    } finally {
      transport.close();
    }
  }

  async send(login: TransportLogin, envelope: MailEnvelope, raw: Buffer): Promise<{ messageId: string }> {
    const { smtp } = login;
    const transport = await createSmtpTransport(smtp, smtpAuth(login));
    try {
      // A client span (tracing on) with the server and the outcome; never the envelope nor the message.
      const info = await traceClientCall('smtp send', { 'server.address': smtp.host, 'server.port': smtp.port }, () =>
        withDeadline(transport.sendMail({ envelope: { ...envelope }, raw }), 120_000, timeout),
      );
      const messageId = headerMessageId(raw) ?? info.messageId;
      return { messageId };
    } catch (error) {
      const e = error as { code?: string; responseCode?: number; response?: string };
      if (e.responseCode && e.responseCode >= 500 && e.code !== 'EAUTH') {
        throw new MailConnectError('SMTP', `el servidor rechazó el envío (${e.response ?? e.responseCode})`);
      }
      throw new MailConnectError('SMTP', connectionReason(error, smtp.host, smtp.port), e.code === 'EAUTH');
    } finally {
      transport.close();
    }
  }
}
