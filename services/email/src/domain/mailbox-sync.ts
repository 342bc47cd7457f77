import type { FetchMessageObject, ImapFlow } from 'imapflow';
import type { MailFolder } from '@asistente/contracts';
import { createEvent, type Logger, type Outbox, type Sql } from '@asistente/kit';
import type { MailAccount } from './account.js';
import { mapFolders } from './folders.js';
import type { MessagesRepository, NewMessage } from './messages.repository.js';
import { parseMessage } from './parse-message.js';

export interface SyncWindow {
  /** First sync (or after a UIDVALIDITY change): messages of the last `days`… */
  days: number;
  /** …and at most this many per folder, the newest. */
  maxPerFolder: number;
}

export interface FolderResult {
  folder: MailFolder;
  inserted: number;
}

const FETCH_BATCH = 200;
const ROLES: MailFolder[] = ['inbox', 'sent', 'drafts', 'trash'];

/**
 * Brings the local copy of one mailbox up to date over one IMAP connection: folders by special use, new
 * messages by UID (a first window when the folder is new or its UIDVALIDITY changed), and the server's read
 * flags and expunges for what is already here.
 */
export class MailboxSync {
  constructor(
    private readonly sql: Sql,
    private readonly messages: MessagesRepository,
    private readonly outbox: Outbox,
    private readonly window: SyncWindow,
    private readonly log: Logger,
  ) {}

  async sync(client: ImapFlow, account: MailAccount, only?: MailFolder[]): Promise<FolderResult[]> {
    const paths = mapFolders(await client.list());
    const states = await this.messages.folders(account.id);
    const results: FolderResult[] = [];
    for (const role of only ?? ROLES) {
      const path = paths.get(role);
      if (!path) continue;
      results.push(await this.syncFolder(client, account, role, path, states.get(role)));
    }
    return results;
  }

  private async parse(account: MailAccount, role: MailFolder, message: FetchMessageObject): Promise<NewMessage> {
    const internal = message.internalDate instanceof Date ? message.internalDate : new Date(message.internalDate ?? Date.now());
    const mail = await parseMessage(message.source!, internal);
    if (mail.parseError) {
      this.log.warn({ accountId: account.id, folder: role, uid: message.uid, reason: mail.parseError }, 'message kept unparsed');
    }
    return { uid: message.uid, isRead: message.flags?.has('\\Seen') ?? false, parsed: mail };
  }

  /** Server paths of each role, for moves (Trash) and appends (Sent). */
  async paths(client: ImapFlow): Promise<Map<MailFolder, string>> {
    return mapFolders(await client.list());
  }

  private async syncFolder(
    client: ImapFlow,
    account: MailAccount,
    role: MailFolder,
    path: string,
    known: { uidValidity: bigint; lastUid: number } | undefined,
  ): Promise<FolderResult> {
    const lock = await client.getMailboxLock(path);
    try {
      const mailbox = client.mailbox;
      if (!mailbox) return { folder: role, inserted: 0 };
      const uidValidity = BigInt(mailbox.uidValidity);
      const fresh = !known || known.uidValidity !== uidValidity;
      if (known && fresh) this.log.info({ accountId: account.id, folder: role }, 'UIDVALIDITY changed: folder resynced');
      const lastUid = fresh ? 0 : known.lastUid;

      let uids: number[];
      if (mailbox.exists === 0) uids = [];
      else if (fresh) {
        const since = new Date(Date.now() - this.window.days * 86_400_000);
        const found = (await client.search({ since }, { uid: true })) || [];
        uids = found.sort((a, b) => a - b).slice(-this.window.maxPerFolder);
      } else {
        const found = (await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })) || [];
        // `n:*` always matches the highest UID, even when it is below n.
        uids = found.filter((uid) => uid > lastUid).sort((a, b) => a - b);
      }

      if (fresh) await this.messages.forgetFolder(this.sql, account.id, role);
      let inserted = 0;
      let highest = lastUid;
      const batches: number[][] = [];
      for (let i = 0; i < uids.length; i += FETCH_BATCH) batches.push(uids.slice(i, i + FETCH_BATCH));
      const fetchBatch = (batch: number[]) =>
        client.fetchAll(batch.join(','), { uid: true, flags: true, source: true, internalDate: true }, { uid: true });
      // Pipelined: the next batch streams in from the server while this one is parsed and stored.
      let next = batches[0] ? fetchBatch(batches[0]) : undefined;
      for (let b = 0; b < batches.length; b++) {
        const batch = batches[b]!;
        const fetched = await next!;
        next = batches[b + 1] ? fetchBatch(batches[b + 1]!) : undefined;
        const parsed = await Promise.all(fetched.filter((m) => m.source).map((message) => this.parse(account, role, message)));
        const batchHighest = Math.max(highest, ...batch);
        const ids = await this.sql.begin(async (tx) => {
          const ids = await this.messages.insertMany(tx, account.userId, account.id, role, parsed);
          // Mail arriving while connected is "received"; the first window is history, not new mail.
          if (role === 'inbox' && !fresh) {
            await this.outbox.append(
              tx,
              ids.map((messageId) => createEvent('email.message.received', account.userId, { messageId, provider: account.provider })),
            );
          }
          await this.messages.saveFolder(tx, account.id, { role, path, uidValidity, lastUid: batchHighest });
          return ids;
        });
        inserted += ids.length;
        highest = batchHighest;
      }
      if (uids.length === 0) await this.messages.saveFolder(this.sql, account.id, { role, path, uidValidity, lastUid: highest });

      if (!fresh && lastUid > 0) {
        const flags = new Map<number, boolean>();
        for await (const message of client.fetch(`1:${lastUid}`, { uid: true, flags: true }, { uid: true })) {
          flags.set(message.uid, message.flags?.has('\\Seen') ?? false);
        }
        await this.messages.applyServerState(account.id, role, lastUid, flags);
      }
      return { folder: role, inserted };
    } finally {
      lock.release();
    }
  }
}
