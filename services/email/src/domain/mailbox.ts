import type { Readable } from 'node:stream';
import type { Logger } from '@asistente/kit';
import type { MailAccount } from './account.js';
import type { ParsedMessage } from './parse-message.js';

// The mailbox port: what the domain does with a mailbox (list folders, read a folder's new messages since a
// mark, open one message, flag, move, delete, append, watch), in the domain's words. adapters/imap-mailbox.ts
// implements it over IMAP (imapflow); a Gmail-API or Graph-mail mailbox would implement the same calls.
// Messages are named by the number the mailbox gives them in their folder (IMAP's UID), ascending with arrival.

/** What a mailbox needs to log in: the server (checked by the host guard) and the account's secret. */
export type MailboxLogin = Pick<MailAccount, 'imap' | 'secret'>;

/** A folder as the mailbox lists it. */
export interface FolderEntry {
  path: string;
  /** The last segment of the path, as a mail app shows it. */
  name: string;
  /** `\Inbox`, `\Sent`, `\Drafts`, `\Trash` when the mailbox says which folder plays the role. */
  specialUse?: string;
  flags: Set<string>;
}

/** A folder's state when it was opened. */
export interface FolderStatus {
  /** The numbers' generation: when it changes, the numbers seen before mean nothing (IMAP's UIDVALIDITY). */
  validity: bigint;
  /** Messages in the folder. */
  count: number;
  /** A change mark, when the mailbox can tell which flags changed since an earlier one (IMAP CONDSTORE). */
  changeMark?: bigint;
}

/** A message as the list and a reply need it: no body, no attachments' content. */
export interface MessageSummary {
  uid: number;
  isRead: boolean;
  parsed: ParsedMessage;
  hasAttachments: boolean;
  /** When the mailbox received it: the day it counts as received. */
  arrivedAt?: Date;
}

export interface AttachmentPart {
  /** The mailbox's name for the part: what a download asks for. */
  part: string;
  name: string;
  contentType: string;
  /** Decoded bytes, estimated from the encoded size. */
  size: number;
}

/** A mail too large to read whole: the start of its text, and its attachments left on the server. */
export interface PartialBody {
  text: string;
  html: string | null;
  attachments: AttachmentPart[];
}

/** One message opened: its whole source, or, over the size limit, the part of it a reader needs. */
export type MessageBody = { source: Buffer } | { partial: PartialBody };

/** One folder, open for a task alone (see `Mailbox.inFolder`). */
export interface OpenFolder {
  readonly status: FolderStatus;
  /** Numbers of the messages received since `date`, ascending. */
  receivedSince(date: Date): Promise<number[]>;
  /** Numbers above `uid`, ascending (new mail since the last sync). */
  above(uid: number): Promise<number[]>;
  /** Numbers up to `uid` still present (what was expunged elsewhere is missing). */
  present(upTo: number): Promise<number[]>;
  /** Summaries of these messages (those still present), with the start of their text for a preview. */
  summaries(uids: number[]): Promise<MessageSummary[]>;
  /** Read flags of the messages up to `upTo`; with `changedSince`, only those changed after that mark. */
  readFlags(upTo: number, changedSince?: bigint): Promise<Map<number, boolean>>;
  /** The message, whole when at most `maxBytes`, in part otherwise; undefined when it is gone. */
  body(uid: number, maxBytes: number): Promise<MessageBody | undefined>;
  markRead(uid: number): Promise<void>;
  /** Moves to `destination`, answering the number it got there when the mailbox says. */
  move(uid: number, destination: string): Promise<number | undefined>;
  delete(uid: number): Promise<void>;
}

/**
 * What a watched folder reports: new mail or expunges; a read flag changed elsewhere (by the message's number,
 * or as a change of the folder when the mailbox does not name it); the connection's end.
 */
export interface FolderWatch {
  changed(): void;
  readChanged(uid: number, read: boolean): void;
  closed(): void;
}

/** A logged-in mailbox, until `close()`. */
export interface Mailbox {
  folders(): Promise<FolderEntry[]>;
  /** Runs `task` with `path` open for it alone. */
  inFolder<T>(path: string, task: (folder: OpenFolder) => Promise<T>): Promise<T>;
  append(path: string, raw: Buffer, flags: { read?: boolean; draft?: boolean }): Promise<void>;
  /** Keeps `path` open on this mailbox and reports its changes (the mailbox was opened with `watch`). */
  watch(path: string, listener: FolderWatch): Promise<void>;
  /** One part of a message, streamed as it is read, without changing anything; this mailbox is the stream's own. */
  download(path: string, uid: number, part: string, chunkBytes: number): Promise<Readable | undefined>;
  /** Logs out politely, or drops the connection when the server does not answer. */
  close(): Promise<void>;
}

export interface MailboxProvider {
  /** A logged-in mailbox; a failed login is a MailConnectError with the reason in Spanish. */
  open(login: MailboxLogin, log?: Logger, options?: { watch?: boolean }): Promise<Mailbox>;
}

/** Opens a mailbox for `task` and closes it afterwards, whatever happens: the one open → close sequence. */
export async function withMailbox<T>(
  provider: MailboxProvider,
  login: MailboxLogin,
  log: Logger | undefined,
  task: (mailbox: Mailbox) => Promise<T>,
): Promise<T> {
  const mailbox = await provider.open(login, log);
  try {
    return await task(mailbox);
  } finally {
    await mailbox.close();
  }
}
