// The parts of imapflow's answers the IMAP adapter reads, narrowed to what it uses (imapflow's own types
// satisfy them).

export interface MailAddress {
  name?: string;
  address?: string;
}

export interface ImapEnvelope {
  date?: Date | string;
  subject?: string;
  messageId?: string;
  inReplyTo?: string;
  from?: MailAddress[];
  to?: MailAddress[];
  cc?: MailAddress[];
  replyTo?: MailAddress[];
}

/** A node of a message's MIME structure (BODYSTRUCTURE). */
export interface MessageStructure {
  part?: string;
  type: string;
  parameters?: Record<string, string>;
  encoding?: string;
  size?: number;
  disposition?: string;
  dispositionParameters?: Record<string, string>;
  childNodes?: MessageStructure[];
}

/** One fetched message: the fields its query asked for. */
export interface FetchedMessage {
  uid: number;
  flags?: Set<string>;
  envelope?: ImapEnvelope;
  bodyStructure?: MessageStructure;
  internalDate?: Date | string;
  size?: number;
  source?: Buffer;
  headers?: Buffer;
  /** The body parts asked for, keyed by the server's section name (e.g. `1]<0>`). */
  bodyParts?: Map<string, Buffer>;
}
