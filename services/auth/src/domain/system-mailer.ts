// The port the reset flow sends through; adapters/system-mailer.ts implements it with nodemailer.

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
