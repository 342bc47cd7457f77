import type { Readable } from 'node:stream';
import type { Logger } from '@asistente/kit';
import type { CheckedServer } from './account.js';

// The mail port: everything the domain does with a mail server (fetch, sync, IDLE, append, move, send,
// compose), declared here in the domain's own types. adapters/imap-mail-provider.ts implements it with
// imapflow and nodemailer; app.ts wires the two. A session's shape is the part of an IMAP client the
// domain uses, so imapflow's client satisfies it as it is (and tests hand one in directly).

export type ImapAuth = { user: string; pass: string } | { user: string; accessToken: string };
export type SmtpAuth = { user: string; pass: string } | { type: 'OAuth2'; user: string; accessToken: string };

/** A mail server could not be reached or refused the login; `reason` is in Spanish for the owner. */
export class MailConnectError extends Error {
  constructor(
    readonly server: 'IMAP' | 'SMTP',
    readonly reason: string,
    readonly authFailed = false,
  ) {
    super(`No se pudo conectar al servidor ${server}: ${reason}`);
    this.name = 'MailConnectError';
  }
}

export interface MailAddress {
  name?: string;
  address?: string;
}

export interface MailEnvelope {
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

/** What a FETCH asks for. */
export interface FetchQuery {
  uid?: boolean;
  flags?: boolean;
  envelope?: boolean;
  bodyStructure?: boolean;
  internalDate?: boolean;
  size?: boolean;
  source?: boolean;
  headers?: string[];
  bodyParts?: { key: string; start?: number; maxLength?: number }[];
}

/** One fetched message: the fields its query asked for. */
export interface FetchedMessage {
  uid: number;
  flags?: Set<string>;
  envelope?: MailEnvelope;
  bodyStructure?: MessageStructure;
  internalDate?: Date | string;
  size?: number;
  source?: Buffer;
  headers?: Buffer;
  /** The body parts asked for, keyed by the server's section name (e.g. `1]<0>`). */
  bodyParts?: Map<string, Buffer>;
}

/** A folder as LIST answers it. */
export interface FolderEntry {
  path: string;
  name: string;
  specialUse?: string;
  flags: Set<string>;
}

/** The selected mailbox, as SELECT reported it. */
export interface SelectedMailbox {
  uidValidity: bigint;
  exists: number;
  highestModseq?: bigint;
  noModseq?: boolean;
}

type UidOptions = { uid?: boolean };

/** A logged-in IMAP connection. Message ranges are UID sets (`12`, `1:40`, `3,5,9`). */
export interface MailSession {
  /** Extensions enabled on the connection (CONDSTORE…). */
  readonly enabled: Set<string>;
  /** The selected mailbox, or false when none is. */
  readonly mailbox: SelectedMailbox | false;
  list(): Promise<FolderEntry[]>;
  /** Selects `path` for this holder alone until `release()`; see `inMailbox`, the one place it is used. */
  getMailboxLock(path: string): Promise<{ release(): void }>;
  /** Selects `path` for good (a watched inbox, a download's folder). */
  mailboxOpen(path: string, options?: { readOnly?: boolean }): Promise<unknown>;
  search(query: { since?: Date; uid?: string }, options: UidOptions): Promise<number[] | false | undefined>;
  fetch(range: string, query: FetchQuery, options: UidOptions & { changedSince?: bigint }): AsyncIterable<FetchedMessage>;
  fetchAll(range: string, query: FetchQuery, options: UidOptions): Promise<FetchedMessage[]>;
  fetchOne(uid: string, query: FetchQuery, options: UidOptions): Promise<FetchedMessage | false | undefined>;
  /** One body part, decoded, streamed as it is read (`maxBytes` stops asking the server beyond it). */
  download(uid: string, part: string, options: UidOptions & { maxBytes?: number; chunkSize?: number }): Promise<{ content?: Readable }>;
  append(path: string, raw: Buffer, flags: string[]): Promise<unknown>;
  messageFlagsAdd(range: string, flags: string[], options: UidOptions): Promise<boolean>;
  messageDelete(range: string, options: UidOptions): Promise<boolean>;
  /** The UIDs the moved messages got in `destination`, when the server says. */
  messageMove(range: string, destination: string, options: UidOptions): Promise<{ uidMap?: Map<number, number> } | false>;
  /** IDLE on the selected mailbox: new mail, expunges, flag changes made elsewhere, and the connection's end. */
  on(event: 'exists' | 'expunge' | 'close', listener: () => void): unknown;
  on(event: 'flags', listener: (event: { uid?: number; flags: Set<string> }) => void): unknown;
}

/** A message to build as raw RFC 5322 (for sending, or appending to Drafts). */
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

export interface MailProvider {
  /** A logged-in session; a failed login is a MailConnectError with the reason in Spanish. */
  open(server: CheckedServer, auth: ImapAuth, log?: Logger, options?: { idle?: boolean }): Promise<MailSession>;
  /** Logs out politely, or drops the connection when the server does not answer. */
  close(session: MailSession): Promise<void>;
  /** Logs in to SMTP and out again: proves the settings before anything is stored. */
  verifySmtp(server: CheckedServer, auth: SmtpAuth): Promise<void>;
  /** Sends a message already built to the envelope's recipients. */
  send(server: CheckedServer, auth: SmtpAuth, envelope: { from: string; to: string[] }, raw: Buffer): Promise<void>;
  compose(mail: OutgoingMail): Promise<Buffer>;
}

/** Runs `task` with `path` selected and locked: the mailbox lock is taken and released here only. */
export async function inMailbox<T>(session: MailSession, path: string, task: () => Promise<T>): Promise<T> {
  const lock = await session.getMailboxLock(path);
  try {
    return await task();
  } finally {
    lock.release();
  }
}

/** Opens a session for `task` and closes it afterwards, whatever happens: the one open → close sequence. */
export async function withSession<T>(
  mail: MailProvider,
  server: CheckedServer,
  auth: ImapAuth,
  log: Logger | undefined,
  task: (session: MailSession) => Promise<T>,
): Promise<T> {
  const session = await mail.open(server, auth, log);
  try {
    return await task(session);
  } finally {
    await mail.close(session);
  }
}
