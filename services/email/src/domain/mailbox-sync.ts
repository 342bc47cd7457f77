import type { MailFolder } from '@asistente/contracts';
import type { Logger, Outbox, Sql } from '@asistente/kit';
import type { MailAccount } from './account.js';
import type { AccountsRepository } from './accounts.repository.js';
import { mapFolders } from './folders.js';
import type { Mailbox, OpenFolder } from './mailbox.js';
import { receivedEvents } from './received-events.js';
import type { FolderState, MessagesRepository, NewMessage } from './messages.repository.js';

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
 * Brings the local copy of one mailbox up to date through the mailbox port: folders by role, new messages by
 * number (a first window when the folder is new or its validity changed), and the server's read flags and
 * expunges for what is already here.
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

  async sync(client: Mailbox, account: MailAccount, only?: MailFolder[]): Promise<FolderResult[]> {
    const paths = mapFolders(await client.folders());
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
  private async plan(client: Mailbox, account: MailAccount, role: MailFolder, path: string, known: FolderState | undefined): Promise<FolderPlan> {
    return client.inFolder(path, async (folder) => {
      const uidValidity = folder.status.validity;
      const fresh = !known || known.uidValidity !== uidValidity;
      if (known && fresh && known.uidValidity !== WINDOW_PENDING) this.log.info({ accountId: account.id, folder: role }, 'UIDVALIDITY changed: folder resynced');
      const lastUid = fresh ? 0 : known.lastUid;
      let uids: number[] = [];
      if (folder.status.count === 0) uids = [];
      else if (fresh) uids = (await folder.receivedSince(new Date(Date.now() - this.window.days * 86_400_000))).slice(-this.window.maxPerFolder);
      else uids = await folder.above(lastUid);
      return { role, path, known, uidValidity, fresh, lastUid, uids };
    });
  }

  /** Summaries of a batch, ready to store: the body is fetched when the mail is opened. */
  private async fetchSummaries(folder: OpenFolder, batch: number[]): Promise<NewMessage[]> {
    return (await folder.summaries(batch)).map((summary) => ({ ...summary, bodyFetched: false }));
  }

  /**
   * Read flags and expunges of what is already here. When the mailbox tells changes since a mark (CONDSTORE)
   * only the flags changed since the last sync travel, and expunges come from one search; otherwise every
   * flag is read.
   */
  private async syncFlags(folder: OpenFolder, account: MailAccount, role: MailFolder, lastUid: number, since: bigint | null): Promise<void> {
    const mark = folder.status.changeMark;
    const incremental = since !== null && mark !== undefined;
    const flags = !incremental || mark !== since ? await folder.readFlags(lastUid, incremental ? since : undefined) : new Map<number, boolean>();
    const present = incremental ? await folder.present(lastUid) : undefined;
    await this.messages.applyServerState(account.id, role, lastUid, flags, present);
  }

  /** Server paths of each role, for moves (Trash) and appends (Sent). */
  async paths(client: Mailbox): Promise<Map<MailFolder, string>> {
    return mapFolders(await client.folders());
  }

  private async syncFolder(client: Mailbox, account: MailAccount, plan: FolderPlan): Promise<FolderResult> {
    const { role, path, known, uidValidity, fresh, lastUid, uids } = plan;
    return client.inFolder(path, async (folder) => {
      // Changed since the plan: the next sync starts this folder over.
      if (folder.status.validity !== uidValidity) return { folder: role, inserted: 0 };

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
      let next = batches[0] ? this.fetchSummaries(folder, batches[0]) : undefined;
      for (let b = 0; b < batches.length; b++) {
        const batch = batches[b]!;
        const parsed = await next!;
        next = batches[b + 1] ? this.fetchSummaries(folder, batches[b + 1]!) : undefined;
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

      if (!fresh && lastUid > 0) await this.syncFlags(folder, account, role, lastUid, known?.highestModseq ?? null);
      // Taken when the folder was opened: a change made while this sync ran has a higher mark and is read next time.
      await this.messages.saveModseq(account.id, role, folder.status.changeMark ?? null);
      return { folder: role, inserted };
    });
  }
}
