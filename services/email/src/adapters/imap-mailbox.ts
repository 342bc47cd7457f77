import type { Readable } from 'node:stream';
import type { ImapFlow } from 'imapflow';
import type { Logger } from '@asistente/kit';
import type { FolderEntry, FolderStatus, FolderWatch, Mailbox, MailboxLogin, MailboxProvider, MessageBody, OpenFolder } from '../domain/mailbox.js';
import { closeImap, imapAuth, openImap } from './imap-client.js';
import { readPartialBody } from './imap-partial-body.js';
import { fetchSummaries } from './imap-summaries.js';

const UID = { uid: true } as const;

/** The folder selected on the connection, as SELECT reported it. */
function statusOf(client: ImapFlow): FolderStatus {
  const mailbox = client.mailbox;
  if (!mailbox) return { validity: 0n, count: 0 };
  // With CONDSTORE the server tells which flags changed since a modseq; without it every flag is read.
  const condstore = client.enabled.has('CONDSTORE') && !mailbox.noModseq && mailbox.highestModseq !== undefined;
  return { validity: BigInt(mailbox.uidValidity), count: mailbox.exists, ...(condstore ? { changeMark: mailbox.highestModseq } : {}) };
}

/** A UID SEARCH's answer, ascending. */
async function searchUids(client: ImapFlow, query: { since?: Date; uid?: string }): Promise<number[]> {
  return ((await client.search(query, UID)) || []).sort((a, b) => a - b);
}

/** The folder selected for one task; UIDs name its messages. */
class ImapFolder implements OpenFolder {
  readonly status: FolderStatus;

  constructor(private readonly client: ImapFlow) {
    this.status = statusOf(client);
  }

  receivedSince(date: Date): Promise<number[]> {
    return searchUids(this.client, { since: date });
  }

  async above(uid: number): Promise<number[]> {
    // `n:*` always matches the highest UID, even when it is below n.
    return (await searchUids(this.client, { uid: `${uid + 1}:*` })).filter((found) => found > uid);
  }

  present(upTo: number): Promise<number[]> {
    return searchUids(this.client, { uid: `1:${upTo}` });
  }

  summaries(uids: number[]): Promise<Awaited<ReturnType<OpenFolder['summaries']>>> {
    return fetchSummaries(this.client, uids);
  }

  async readFlags(upTo: number, changedSince?: bigint): Promise<Map<number, boolean>> {
    const flags = new Map<number, boolean>();
    const options = changedSince === undefined ? UID : { ...UID, changedSince };
    for await (const message of this.client.fetch(`1:${upTo}`, { uid: true, flags: true }, options)) {
      flags.set(message.uid, message.flags?.has('\\Seen') ?? false);
    }
    return flags;
  }

  async body(uid: number, maxBytes: number): Promise<MessageBody | undefined> {
    // The size first: a mail over the limit is read in part and never travels whole.
    const head = await this.client.fetchOne(String(uid), { uid: true, size: true, bodyStructure: true }, UID);
    if (!head) return undefined;
    if ((head.size ?? 0) > maxBytes) return { partial: await readPartialBody(this.client, uid, head.bodyStructure) };
    const message = await this.client.fetchOne(String(uid), { uid: true, source: true }, UID);
    return message && message.source ? { source: message.source } : undefined;
  }

  async markRead(uid: number): Promise<void> {
    await this.client.messageFlagsAdd(String(uid), ['\\Seen'], UID);
  }

  async move(uid: number, destination: string): Promise<number | undefined> {
    const moved = await this.client.messageMove(String(uid), destination, UID);
    return moved ? moved.uidMap?.get(uid) : undefined;
  }

  async delete(uid: number): Promise<void> {
    await this.client.messageDelete(String(uid), UID);
  }
}

/** One logged-in IMAP connection. */
class ImapMailbox implements Mailbox {
  constructor(private readonly client: ImapFlow) {}

  async folders(): Promise<FolderEntry[]> {
    return (await this.client.list()).map(({ path, name, specialUse, flags }) => ({ path, name, flags, ...(specialUse ? { specialUse } : {}) }));
  }

  /** The mailbox lock is taken and released here only. */
  async inFolder<T>(path: string, task: (folder: OpenFolder) => Promise<T>): Promise<T> {
    const lock = await this.client.getMailboxLock(path);
    try {
      return await task(new ImapFolder(this.client));
    } finally {
      lock.release();
    }
  }

  async append(path: string, raw: Buffer, flags: { read?: boolean; draft?: boolean }): Promise<void> {
    await this.client.append(path, raw, [...(flags.draft ? ['\\Draft'] : []), ...(flags.read ? ['\\Seen'] : [])]);
  }

  /** Selected for good: the connection IDLEs on it between commands (opened with `watch`). */
  async watch(path: string, listener: FolderWatch): Promise<void> {
    const client = this.client;
    await client.mailboxOpen(path);
    client.on('exists', () => listener.changed());
    client.on('expunge', () => listener.changed());
    client.on('flags', (event: { uid?: number; flags: Set<string> }) => {
      if (event.uid !== undefined) listener.readChanged(event.uid, event.flags.has('\\Seen'));
      else listener.changed();
    });
    client.on('close', () => listener.closed());
  }

  async download(path: string, uid: number, part: string, chunkBytes: number): Promise<Readable | undefined> {
    // Read-only: downloading never marks the mail read or changes anything else on the server.
    await this.client.mailboxOpen(path, { readOnly: true });
    const { content } = await this.client.download(String(uid), part, { uid: true, chunkSize: chunkBytes });
    return content;
  }

  close(): Promise<void> {
    return closeImap(this.client);
  }
}

/** The mailbox port over IMAP (imapflow), for password and OAuth logins alike. */
export class ImapMailboxes implements MailboxProvider {
  async open(login: MailboxLogin, log?: Logger, options: { watch?: boolean } = {}): Promise<Mailbox> {
    return new ImapMailbox(await openImap(login.imap, imapAuth(login), log, { idle: options.watch === true }));
  }
}
