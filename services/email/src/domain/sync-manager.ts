import type { MailFolder } from '@asistente/contracts';
import { LeaseLoop, type LeaseTiming, type Logger } from '@asistente/kit';
import type { MailAccount } from './account.js';
import { AccountWatcher, type WatcherHost } from './account-watcher.js';
import type { AccountsRepository } from './accounts.repository.js';
import type { Credentials } from './credentials.js';
import type { LeasesRepository } from './leases.repository.js';
import { withMailbox, type MailboxProvider } from './mailbox.js';
import type { MailboxSync } from './mailbox-sync.js';
import type { MessagesRepository } from './messages.repository.js';

export type { LeaseTiming } from '@asistente/kit';

export const DEFAULT_LEASE: LeaseTiming = { ttlMs: 20_000, tickMs: 5_000 };

/** Work one replica asks of the replica that holds an account's lease. */
interface Notice {
  accountId: string;
  /** start: (re)connected, watch it again; stop: disconnected; sync: changed on the server by the sender. */
  action: 'start' | 'stop' | 'sync';
  folders?: MailFolder[];
  /** The replica that sent it. */
  from: string;
}

/**
 * The mailboxes this replica syncs. A lease on the account row names the one replica that keeps its sync and
 * IDLE connection: it renews it every tick, and a replica that finds an expired or released lease on a
 * connected account takes it over. Every replica answers the API from the database; changes asked of one
 * that does not hold the account are made on the server over a connection of its own, and the holder is told
 * to read them back (LISTEN/NOTIFY) in its queue.
 */
export class SyncManager implements WatcherHost {
  readonly owner: string;
  /** The watchers of the accounts this replica holds. */
  private readonly watchers: LeaseLoop<AccountWatcher>;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    readonly accounts: AccountsRepository,
    private readonly leases: LeasesRepository,
    private readonly messages: MessagesRepository,
    private readonly credentials: Credentials,
    private readonly mailboxSync: MailboxSync,
    readonly log: Logger,
    lease: LeaseTiming,
    /** The embedded process is the only replica: it takes leases left by its previous run without waiting. */
    private readonly exclusive: boolean,
    /** The mailbox port; the watchers keep their watched inboxes through it too. */
    readonly mailboxes: MailboxProvider,
  ) {
    this.watchers = new LeaseLoop({
      store: leases,
      timing: lease,
      exclusive,
      label: 'mail',
      log,
      create: (accountId) => new AccountWatcher(accountId, this),
      stop: (watcher) => watcher.stop(),
    });
    this.owner = this.watchers.owner;
  }

  private get closed(): boolean {
    return this.watchers.closed;
  }

  /** Takes the connected accounts nobody holds, then keeps renewing and taking over (service start). */
  startAll(): void {
    if (!this.exclusive) this.listen();
    this.watchers.start();
  }

  /** Graceful stop: connections closed and leases released, so another replica takes the accounts at once. */
  async close(): Promise<void> {
    const closing = this.watchers.close();
    await this.unlisten?.().catch(() => undefined);
    await closing;
  }

  /** What a killed replica leaves behind: no connection, no timer, and its leases in place until they expire. */
  async halt(): Promise<void> {
    const halting = this.watchers.halt();
    await this.unlisten?.().catch(() => undefined);
    await halting;
  }

  /** Whether this replica keeps the account's sync and IDLE connection. */
  holds(accountId: string): boolean {
    return this.watchers.holds(accountId);
  }

  /** A mailbox (re)connected through this replica: watched here, or by the replica that holds it already. */
  async start(accountId: string): Promise<void> {
    // A watcher that gave up on refused credentials is replaced when the owner connects the account again.
    if (!(await this.watchers.adopt(accountId, this.exclusive))) await this.tell({ accountId, action: 'start' });
  }

  /** Before the account is deleted: its connection closes now, wherever it is. */
  async stop(accountId: string): Promise<void> {
    const watcher = this.watchers.take(accountId);
    if (watcher) await watcher.stop();
    else await this.tell({ accountId, action: 'stop' });
    await this.watchers.release(accountId);
  }

  /**
   * `folders` changed on the server by this replica over a connection of its own. The holder reads them back
   * in its queue, after any sync it was running had read the older state (and may have stored it).
   */
  async changed(accountId: string, folders: MailFolder[]): Promise<void> {
    if (this.watchers.get(accountId)) return;
    await this.tell({ accountId, action: 'sync', folders }).catch((error: unknown) =>
      this.log.warn({ err: error, accountId }, 'mail holder not told of a change; its next sync reads it'),
    );
  }

  private async tell(notice: Omit<Notice, 'from'>): Promise<void> {
    if (this.exclusive) return;
    await this.leases.notify(JSON.stringify({ ...notice, from: this.owner } satisfies Notice));
  }

  private listen(): void {
    this.leases
      .listen((payload) => void this.onNotice(payload))
      .then(({ unlisten }) => {
        if (this.closed) void unlisten().catch(() => undefined);
        else this.unlisten = unlisten;
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'mail notifications unavailable; the lease tick and periodic sync apply changes'));
  }

  private async onNotice(payload: string): Promise<void> {
    let notice: Notice;
    try {
      notice = JSON.parse(payload) as Notice;
    } catch {
      return;
    }
    // A replica applies its own requests before sending them.
    if (notice.from === this.owner || this.closed) return;
    try {
      if (notice.action === 'start') await this.watchers.adopt(notice.accountId, this.exclusive);
      else if (notice.action === 'stop') {
        const watcher = this.watchers.take(notice.accountId);
        if (!watcher) return;
        await watcher.stop();
        await this.watchers.release(notice.accountId);
      } else this.watchers.get(notice.accountId)?.resync(notice.folders);
    } catch (error) {
      this.log.error({ err: error, accountId: notice.accountId }, 'mail notice not applied');
    }
  }

  /** Runs `task` in the account's queue (after any sync in progress), or directly when nothing watches it. */
  serialize<T>(accountId: string, task: () => Promise<T>): Promise<T> {
    const watcher = this.watchers.get(accountId);
    return watcher ? watcher.run(task) : task();
  }

  async account(accountId: string): Promise<MailAccount | undefined> {
    const row = await this.accounts.byId(accountId);
    return row ? this.credentials.open(row) : undefined;
  }

  async inboxPath(accountId: string): Promise<string | undefined> {
    return (await this.messages.folders(accountId)).get('inbox')?.path;
  }

  /** One sync over a connection of its own. */
  async syncNow(account: MailAccount, only?: Parameters<MailboxSync['sync']>[2]): Promise<void> {
    await withMailbox(this.mailboxes, account, this.log, async (client) => {
      await this.mailboxSync.sync(client, account, only);
      await this.accounts.markSynced(account.id);
    });
  }

  async flagChanged(accountId: string, uid: number, seen: boolean): Promise<void> {
    await this.messages.setReadByUid(accountId, 'inbox', uid, seen).catch((error: unknown) =>
      this.log.warn({ err: error, accountId }, 'read flag not applied'),
    );
  }
}
