import { Readable } from 'node:stream';
import type { Logger } from '@asistente/kit';
import { MailConnectError } from '../../src/domain/mail-errors.js';
import type {
  FolderEntry,
  FolderStatus,
  FolderWatch,
  Mailbox,
  MailboxLogin,
  MailboxProvider,
  MessageBody,
  MessageSummary,
  OpenFolder,
} from '../../src/domain/mailbox.js';
import { parseMessage, previewOf } from '../../src/domain/parse-message.js';

interface StoredMail {
  raw: Buffer;
  read: boolean;
  arrivedAt: Date;
  /** The change mark of its last flag change. */
  changed: bigint;
}

interface Folder {
  validity: bigint;
  nextUid: number;
  mails: Map<number, StoredMail>;
  watchers: Set<FolderWatch>;
}

const SPECIAL = { INBOX: '\\Inbox', Sent: '\\Sent', Drafts: '\\Drafts', Trash: '\\Trash' } as const;

/**
 * A mailbox provider kept in memory, added as any new provider is: this file and one registration. Each
 * password-login user has the four folders; numbers grow per folder, and flag changes carry a change mark.
 */
export class InMemoryMailboxes implements MailboxProvider {
  private readonly users = new Map<string, { password: string; folders: Map<string, Folder> }>();
  private mark = 1n;

  addUser(user: string, password: string): void {
    const folders = new Map(Object.keys(SPECIAL).map((path, i) => [path, { validity: BigInt(1000 + i), nextUid: 1, mails: new Map(), watchers: new Set() } as Folder]));
    this.users.set(user, { password, folders });
  }

  async open(login: MailboxLogin, _log?: Logger): Promise<Mailbox> {
    const account = this.users.get(login.imap.user);
    if (!account || login.secret.kind !== 'password' || login.secret.imapPassword !== account.password) {
      throw new MailConnectError('IMAP', 'el servidor rechazó el usuario o la contraseña', true);
    }
    return new MemoryMailbox(account.folders, () => ++this.mark);
  }
}

class MemoryMailbox implements Mailbox {
  private readonly watching = new Map<Folder, FolderWatch>();

  constructor(
    private readonly store: Map<string, Folder>,
    private readonly nextMark: () => bigint,
  ) {}

  private folder(path: string): Folder {
    const folder = this.store.get(path);
    if (!folder) throw new Error(`no folder ${path}`);
    return folder;
  }

  async folders(): Promise<FolderEntry[]> {
    return [...this.store.keys()].map((path) => ({ path, name: path, specialUse: SPECIAL[path as keyof typeof SPECIAL], flags: new Set<string>() }));
  }

  async inFolder<T>(path: string, task: (folder: OpenFolder) => Promise<T>): Promise<T> {
    return task(new MemoryFolder(this.folder(path), (destination) => this.folder(destination), this.nextMark));
  }

  async append(path: string, raw: Buffer, flags: { read?: boolean }): Promise<void> {
    const folder = this.folder(path);
    folder.mails.set(folder.nextUid++, { raw, read: flags.read === true, arrivedAt: new Date(), changed: this.nextMark() });
    for (const watcher of folder.watchers) watcher.changed();
  }

  async watch(path: string, listener: FolderWatch): Promise<void> {
    const folder = this.folder(path);
    folder.watchers.add(listener);
    this.watching.set(folder, listener);
  }

  async download(path: string, uid: number, part: string): Promise<Readable | undefined> {
    const mail = this.folder(path).mails.get(uid);
    const attachment = mail && (await parseMessage(mail.raw, mail.arrivedAt)).attachments[Number(part)];
    return attachment ? Readable.from([attachment.content]) : undefined;
  }

  async close(): Promise<void> {
    for (const [folder, listener] of this.watching) {
      folder.watchers.delete(listener);
      listener.closed();
    }
    this.watching.clear();
  }
}

class MemoryFolder implements OpenFolder {
  readonly status: FolderStatus;

  constructor(
    private readonly folder: Folder,
    private readonly other: (path: string) => Folder,
    private readonly nextMark: () => bigint,
  ) {
    this.status = { validity: folder.validity, count: folder.mails.size, changeMark: nextMark() };
  }

  private uids(keep: (uid: number, mail: StoredMail) => boolean): number[] {
    return [...this.folder.mails].filter(([uid, mail]) => keep(uid, mail)).map(([uid]) => uid);
  }

  async receivedSince(date: Date): Promise<number[]> {
    return this.uids((_, mail) => mail.arrivedAt >= date);
  }

  async above(uid: number): Promise<number[]> {
    return this.uids((found) => found > uid);
  }

  async present(upTo: number): Promise<number[]> {
    return this.uids((found) => found <= upTo);
  }

  async summaries(uids: number[]): Promise<MessageSummary[]> {
    const found = uids.flatMap((uid) => {
      const mail = this.folder.mails.get(uid);
      return mail ? [{ uid, mail }] : [];
    });
    return Promise.all(
      found.map(async ({ uid, mail }) => {
        const parsed = await parseMessage(mail.raw, mail.arrivedAt);
        return {
          uid,
          isRead: mail.read,
          parsed: { ...parsed, text: '', html: null, attachments: [], preview: previewOf(parsed.text) },
          hasAttachments: parsed.attachments.length > 0,
          arrivedAt: mail.arrivedAt,
        };
      }),
    );
  }

  async readFlags(upTo: number, changedSince?: bigint): Promise<Map<number, boolean>> {
    const flags = new Map<number, boolean>();
    for (const [uid, mail] of this.folder.mails) if (uid <= upTo && (changedSince === undefined || mail.changed > changedSince)) flags.set(uid, mail.read);
    return flags;
  }

  async body(uid: number, maxBytes: number): Promise<MessageBody | undefined> {
    const mail = this.folder.mails.get(uid);
    if (!mail) return undefined;
    if (mail.raw.length <= maxBytes) return { source: mail.raw };
    const parsed = await parseMessage(mail.raw, mail.arrivedAt);
    const attachments = parsed.attachments.map((a, i) => ({ part: String(i), name: a.name, contentType: a.contentType, size: a.size }));
    return { partial: { text: parsed.text, html: parsed.html, attachments } };
  }

  async markRead(uid: number): Promise<void> {
    const mail = this.folder.mails.get(uid);
    if (!mail) return;
    mail.read = true;
    mail.changed = this.nextMark();
    for (const watcher of this.folder.watchers) watcher.readChanged(uid, true);
  }

  async move(uid: number, destination: string): Promise<number | undefined> {
    const mail = this.folder.mails.get(uid);
    if (!mail) return undefined;
    const target = this.other(destination);
    const moved = target.nextUid++;
    target.mails.set(moved, mail);
    this.folder.mails.delete(uid);
    return moved;
  }

  async delete(uid: number): Promise<void> {
    this.folder.mails.delete(uid);
  }
}
