import type { MailAccount } from './account.js';

// The mail transport port: sending a message already written, in the domain's words. SMTP (nodemailer) is
// adapters/smtp-transport.ts; a Gmail-API or Graph-mail transport would implement the same two calls.

/** What a transport needs to log in: the sending server (checked by the host guard) and the account's secret. */
export type TransportLogin = Pick<MailAccount, 'smtp' | 'secret'>;

export interface MailEnvelope {
  from: string;
  to: string[];
}

export interface MailTransport {
  /** Logs in and out once: proves the settings before anything is stored; a refusal is a MailConnectError. */
  verify(login: TransportLogin): Promise<void>;
  /**
   * Sends a message already built (raw RFC 5322) to the envelope's recipients, answering the id the provider
   * knows it by. A refusal or an unreachable server is a MailConnectError with the reason in Spanish.
   */
  send(login: TransportLogin, envelope: MailEnvelope, raw: Buffer): Promise<{ messageId: string }>;
}
