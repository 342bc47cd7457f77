import { traceClientCall } from '@asistente/kit';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { CheckedServer } from '../domain/account.js';
import { connectionReason, withDeadline } from '../domain/connect-errors.js';
import { MailConnectError, type SmtpAuth } from '../domain/mail-provider.js';
import { CONNECT_DEADLINE_MS } from './imap-client.js';

/** nodemailer is loaded by the first send or check, not with the service: an install without a mailbox never needs it. */
export async function createSmtpTransport(settings: CheckedServer, auth: SmtpAuth): Promise<Transporter<SMTPTransport.SentMessageInfo>> {
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

/** Logs in and out once: proves the settings before anything is stored. */
export async function verifySmtp(settings: CheckedServer, auth: SmtpAuth): Promise<void> {
  const transport = await createSmtpTransport(settings, auth);
  try {
    await withDeadline(transport.verify(), CONNECT_DEADLINE_MS, () => Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }));
  } catch (error) {
    throw new MailConnectError('SMTP', connectionReason(error, settings.host, settings.port), (error as { code?: string }).code === 'EAUTH');
  } finally {
    transport.close();
  }
}

/** Sends a message already built (raw RFC 5322) to the envelope's recipients. */
export async function sendRaw(
  settings: CheckedServer,
  auth: SmtpAuth,
  envelope: { from: string; to: string[] },
  raw: Buffer,
): Promise<void> {
  const transport = await createSmtpTransport(settings, auth);
  try {
    // A client span (tracing on) with the server and the outcome; never the envelope nor the message.
    await traceClientCall('smtp send', { 'server.address': settings.host, 'server.port': settings.port }, () =>
      withDeadline(transport.sendMail({ envelope, raw }), 120_000, () => Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
  } catch (error) {
    const e = error as { code?: string; responseCode?: number; response?: string };
    if (e.responseCode && e.responseCode >= 500 && e.code !== 'EAUTH') {
      throw new MailConnectError('SMTP', `el servidor rechazó el envío (${e.response ?? e.responseCode})`);
    }
    throw new MailConnectError('SMTP', connectionReason(error, settings.host, settings.port), e.code === 'EAUTH');
  } finally {
    transport.close();
  }
}
