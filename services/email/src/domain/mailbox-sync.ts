import type { MailFolder } from '@asistente/contracts';
import type { Logger, Outbox, Sql } from '@asistente/kit';
import type { MailAccount } from './account.js';
import type { AccountsRepository } from './accounts.repository.js';
import { mapFolders } from './folders.js';
import { inMailbox, type MailSession } from './mail-provider.js';
import { receivedEvents } from './received-events.js';
import type { FolderState, MessagesRepository, NewMessage } from './messages.repository.js';
import { fetchedPart, hasAttachments, internalDateOf, PREVIEW_BYTES, previewPart, SUMMARY_QUERY, summaryOf, type TextPart } from './message-summary.js';

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

/** Messages per fetch and per insert transaction. */
const FETCH_BATCH = 500;
/** A first window's opening batch: the newest mails are on screen within a second or two. */
const FIRST_BATCH = 50;
const ROLES: MailFolder[] = ['inbox', 'sent', 'drafts', 'trash'];
/**
 * Stored as a folder's UIDVALIDITY while its first window is being fetched (a real one is never 0): the path
 * is known for opening what is already listed, and a sync cut short starts the window again.
 */
const WINDOW_PENDING = 0n;

/** What one folder's sync will fetch, decided before any is fetched so the first sync can count them. */
interface FolderPlan {
  role: MailFolder;
  path: string;
  known: FolderState | undefined;
  uidValidity: bigint;
  /** First window (new folder, changed UIDVALIDITY, or a window cut short). */
  fresh: boolean;
  lastUid: number;
  uids: number[];
}

/** Newest first in a first window, so what the owner looks for first appears first; in order otherwise. */
function batchesOf(uids: number[], fresh: boolean): number[][] {
  const ordered = fresh ? [...uids].reverse() : uids;
  const batches: number[][] = [];
  for (let i = 0; i < ordered.length; ) {
    const size = fresh && i === 0 ? FIRST_BATCH : FETCH_BATCH;
    batches.push(ordered.slice(i, i + size));
    i += size;
  }
  return batches;
}

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
    /** Where a first sync's progress is kept for the screen. */
    private readonly progress: Pick<AccountsRepository, 'syncStarted' | 'syncAdvanced' | 'syncEnded'>,
  ) {}

  async sync(client: MailSession, account: MailAccount, only?: MailFolder[]): Promise<FolderResult[]> {
    const paths = mapFolders(await client.list());
    const states = await this.messages.folders(account.id);
    const plans: FolderPlan[] = [];
    for (const role of only ?? ROLES) {
      const path = paths.get(role);
      if (path) plans.push(await this.plan(client, account, role, path, states.get(role)));
    }
    const window = plans.reduce((sum, plan) => sum + (plan.fresh ? plan.uids.length : 0), 0);
    if (window > 0) await this.progress.syncStarted(account.id, window);
    try {
      const results: FolderResult[] = [];
      for (const plan of plans) results.push(await this.syncFolder(client, account, plan));
      return results;
    } finally {
      // Every sync clears it (a no-op update when there is none): a process stopped between the last batch
      // and this line leaves no progress that would never end.
      await this.progress.syncEnded(account.id).catch((error: unknown) => this.log.warn({ err: error, accountId: account.id }, 'sync progress not cleared'));
    }
  }

  /** The UIDs to fetch: a first window (the last `days`, at most `maxPerFolder`), or those above the mark. */
  private async plan(client: MailSession, account: MailAccount, role: MailFolder, path: string, known: FolderState | undefined): Promise<FolderPlan> {
    return inMailbox(client, path, async () => {
      const mailbox = client.mailbox;
      const uidValidity = mailbox ? BigInt(mailbox.uidValidity) : 0n;
      const fresh = !known || known.uidValidity !== uidValidity;
      if (known && fresh && known.uidValidity !== WINDOW_PENDING) this.log.info({ accountId: account.id, folder: role }, 'UIDVALIDITY changed: folder resynced');
      const lastUid = fresh ? 0 : known.lastUid;
      let uids: number[] = [];
      if (!mailbox || mailbox.exists === 0) uids = [];
      else if (fresh) {
        const since = new Date(Date.now() - this.window.days * 86_400_000);
        const found = (await client.search({ since }, { uid: true })) || [];
        uids = found.sort((a, b) => a - b).slice(-this.window.maxPerFolder);
      } else {
        const found = (await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })) || [];
        // `n:*` always matches the highest UID, even when it is below n.
        uids = found.filter((uid) => uid > lastUid).sort((a, b) => a - b);
      }
      return { role, path, known, uidValidity, fresh, lastUid, uids };
    });
  }

  /**
   * Envelope, flags and structure of a batch, plus the start of each message's first text part for the
   * preview: `1` in one go (single-part and most multipart/alternative mail), other parts in a second
   * fetch per part number. The body itself is fetched when the mail is opened.
   */
  private async fetchSummaries(client: MailSession, batch: number[]): Promise<NewMessage[]> {
    const range = batch.join(',');
    const fetched = await client.fetchAll(
      range,
      { ...SUMMARY_QUERY, headers: [...SUMMARY_QUERY.headers], bodyParts: [{ key: '1', start: 0, maxLength: PREVIEW_BYTES }] },
      { uid: true },
    );
    const elsewhere = new Map<string, number[]>();
    const parts = new Map<number, TextPart | undefined>();
    for (const message of fetched) {
      const part = previewPart(message.bodyStructure);
      parts.set(message.uid, part);
      if (part && part.key !== '1') elsewhere.set(part.key, [...(elsewhere.get(part.key) ?? []), message.uid]);
    }
    const previews = new Map<number, Buffer | undefined>();
    for (const [key, uids] of elsewhere) {
      const rows = await client.fetchAll(uids.join(','), { uid: true, bodyParts: [{ key, start: 0, maxLength: PREVIEW_BYTES }] }, { uid: true });
      for (const row of rows) previews.set(row.uid, fetchedPart(row));
    }
    return fetched.map((message) => {
      const part = parts.get(message.uid);
      const raw = part?.key === '1' ? fetchedPart(message) : previews.get(message.uid);
      return {
        uid: message.uid,
        isRead: message.flags?.has('\\Seen') ?? false,
        parsed: summaryOf(message, raw, part),
        hasAttachments: hasAttachments(message.bodyStructure),
        bodyFetched: false,
        arrivedAt: internalDateOf(message.internalDate),
      };
    });
  }

  private condstore(client: MailSession): boolean {
    return client.enabled.has('CONDSTORE') && client.mailbox !== false && !client.mailbox.noModseq && client.mailbox.highestModseq !== undefined;
  }

  /**
   * Read flags and expunges of what is already here. With CONDSTORE only the flags changed since the last
   * sync travel (CHANGEDSINCE), and expunges come from one UID SEARCH; without it every flag is read.
   */
  private async syncFlags(client: MailSession, account: MailAccount, role: MailFolder, lastUid: number, since: bigint | null): Promise<void> {
    const incremental = since !== null && this.condstore(client);
    const flags = new Map<number, boolean>();
    const options = incremental ? { uid: true, changedSince: since } : { uid: true };
    if (!incremental || client.mailbox === false || client.mailbox.highestModseq !== since) {
      for await (const message of client.fetch(`1:${lastUid}`, { uid: true, flags: true }, options)) {
        flags.set(message.uid, message.flags?.has('\\Seen') ?? false);
      }
    }
    const present = incremental ? ((await client.search({ uid: `1:${lastUid}` }, { uid: true })) || []) : undefined;
    await this.messages.applyServerState(account.id, role, lastUid, flags, present);
  }

  /** Server paths of each role, for moves (Trash) and appends (Sent). */
  async paths(client: MailSession): Promise<Map<MailFolder, string>> {
    return mapFolders(await client.list());
  }

  private async syncFolder(client: MailSession, account: MailAccount, plan: FolderPlan): Promise<FolderResult> {
    const { role, path, known, uidValidity, fresh, lastUid, uids } = plan;
    return inMailbox(client, path, async () => {
      const mailbox = client.mailbox;
      // Changed since the plan: the next sync starts this folder over.
      if (!mailbox || BigInt(mailbox.uidValidity) !== uidValidity) return { folder: role, inserted: 0 };

      // Only a changed UIDVALIDITY (or a window cut short) voids what is stored: rows already here for a folder
      // seen for the first time come from another replica's sync of the same folder (while a lease changes
      // hands), not from an old one.
      if (known && fresh) await this.messages.forgetFolder(this.sql, account.id, role);
      if (fresh && uids.length > 0) await this.messages.saveFolder(this.sql, account.id, { role, path, uidValidity: WINDOW_PENDING, lastUid: 0 });
      let inserted = 0;
      let highest = lastUid;
      // Inbox mail is "received" on the day it arrived. New mail counts as it is stored; the history of a
      // folder's first window counts too, all at once when the window is complete (a window cut short and
      // started again counts it once). A resync after a changed UIDVALIDITY brings back mail already counted.
      const counted = role === 'inbox' && (!fresh || !known || known.uidValidity === WINDOW_PENDING);
      const history: ReturnType<typeof receivedEvents> = [];
      const batches = batchesOf(uids, fresh);
      // Pipelined: the next batch streams in from the server while this one is stored.
      let next = batches[0] ? this.fetchSummaries(client, batches[0]) : undefined;
      for (let b = 0; b < batches.length; b++) {
        const batch = batches[b]!;
        const parsed = await next!;
        next = batches[b + 1] ? this.fetchSummaries(client, batches[b + 1]!) : undefined;
        const last = b === batches.length - 1;
        const batchHighest = Math.max(highest, ...batch);
        const ids = await this.sql.begin(async (tx) => {
          const ids = await this.messages.insertMany(tx, account.userId, account.id, role, parsed);
          if (counted && !fresh) await this.outbox.append(tx, receivedEvents(account, ids, parsed));
          if (counted && fresh) history.push(...receivedEvents(account, ids, parsed));
          if (counted && fresh && last) await this.outbox.append(tx, history);
          if (fresh) await this.progress.syncAdvanced(tx, account.id, batch.length);
          // A first window goes newest first: its mark (and real UIDVALIDITY) is saved once all of it is here.
          if (!fresh || last) await this.messages.saveFolder(tx, account.id, { role, path, uidValidity, lastUid: batchHighest });
          return ids;
        });
        inserted += ids.length;
        highest = batchHighest;
      }
      if (uids.length === 0) await this.messages.saveFolder(this.sql, account.id, { role, path, uidValidity, lastUid: highest });

      if (!fresh && lastUid > 0) await this.syncFlags(client, account, role, lastUid, known?.highestModseq ?? null);
      // Taken at SELECT: a change made while this sync ran has a higher modseq and is read next time.
      await this.messages.saveModseq(account.id, role, this.condstore(client) ? (mailbox.highestModseq ?? null) : null);
      return { folder: role, inserted };
    });
  }
}
