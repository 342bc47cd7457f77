import nodemailer from 'nodemailer';

export interface SystemMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The product's own outgoing mail (password reset links), through the server in SMTP_URL. */
export interface SystemMailer {
  send(mail: SystemMail): Promise<void>;
  close(): void;
}

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
