/** A message to build as raw RFC 5322 (for sending, appending to Drafts, or an export's .eml). */
export interface OutgoingMail {
  from: string;
  to?: string | string[];
  cc?: string | string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** Generated when absent. */
  messageId?: string;
  inReplyTo?: string;
  references?: string | string[];
  date: Date;
  attachments?: { filename: string; contentType?: string; content: Buffer }[];
}

/** Writes a message as raw RFC 5322: what every transport and mailbox takes. */
export interface MailComposer {
  compose(mail: OutgoingMail): Promise<Buffer>;
}
