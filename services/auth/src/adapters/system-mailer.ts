import type { Transporter } from 'nodemailer';
import type { SystemMailer } from '../domain/system-mailer.js';

/**
 * `smtp://user:pass@host:587` upgrades with STARTTLS when the server offers it; `smtps://` is TLS from the
 * start (nodemailer reads both, credentials included, from the URL). Timeouts keep a dead server from
 * holding a send for nodemailer's default two minutes.
 */
export function createSystemMailer(smtpUrl: string, from: string): SystemMailer {
  // nodemailer is loaded by the first mail sent (a password reset), not at boot: most days none is sent.
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    ));
  return {
    async send(mail) {
      await (await open()).sendMail({ from, ...mail });
    },
    close: () => void transport?.then((opened) => opened.close(), () => undefined),
  };
}

/** MAIL_FROM, or a no-reply address at the app's own host. */
export function systemSender(mailFrom: string | undefined, publicUrl: string): string {
  return mailFrom ?? `Mi Asistente.IA <no-reply@${new URL(publicUrl).hostname}>`;
}
