import nodemailer from 'nodemailer';
import type { SystemMailer } from '../domain/system-mailer.js';

/**
 * `smtp://user:pass@host:587` upgrades with STARTTLS when the server offers it; `smtps://` is TLS from the
 * start (nodemailer reads both, credentials included, from the URL). Timeouts keep a dead server from
 * holding a send for nodemailer's default two minutes.
 */
export function createSystemMailer(smtpUrl: string, from: string): SystemMailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}

/** MAIL_FROM, or a no-reply address at the app's own host. */
export function systemSender(mailFrom: string | undefined, publicUrl: string): string {
  return mailFrom ?? `Mi Asistente.IA <no-reply@${new URL(publicUrl).hostname}>`;
}
