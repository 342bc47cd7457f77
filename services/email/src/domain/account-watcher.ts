import type { MailFolder } from '@asistente/contracts';
import { HostNotAllowedError, type Logger } from '@asistente/kit';
import type { MailAccount } from './account.js';
import type { AccountsRepository } from './accounts.repository.js';
import { MailConnectError } from './mail-errors.js';
import { OAuthGrantError } from './mail-oauth.js';
import type { Mailbox, MailboxProvider } from './mailbox.js';

/**
 * What a watcher asks of the replica that holds its account (the sync manager): the account, a sync, the mail
 * servers' port. Named here, so the manager depends on its watchers and not the other way round.
 */
export interface WatcherHost {
  readonly accounts: Pick<AccountsRepository, 'markDisconnected' | 'markError'>;
  readonly log: Logger;
  readonly mailboxes: MailboxProvider;
  account(accountId: string): Promise<MailAccount | undefined>;
  inboxPath(accountId: string): Promise<string | undefined>;
  syncNow(account: MailAccount, only?: MailFolder[]): Promise<void>;
  flagChanged(accountId: string, uid: number, seen: boolean): Promise<void>;
}

const RECONNECT_MIN_MS = 2_000;
/** IDLE watches the inbox only: the other folders (and anything IDLE missed) are brought up to date this often. */
const FULL_SYNC_MS = 5 * 60_000;
const RECONNECT_MAX_MS = 5 * 60_000;

/**
 * One watcher per account this replica holds the lease of: a full sync when it starts, then a connection
 * kept open on the inbox (the session IDLEs on it by itself) so new mail and flag changes made elsewhere show
 * within seconds. A dropped connection is retried with backoff; `error` on the account says why meanwhile.
 */
export class AccountWatcher {
  private client: Mailbox | undefined;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private periodic: NodeJS.Timeout | undefined;
  private failures = 0;
  private queue: Promise<void> = Promise.resolve();
  private pendingInbox = false;

  constructor(
    private readonly accountId: string,
    private readonly manager: WatcherHost,
  ) {}

  start(): void {
    void this.connect();
  }

  /** Stopped by the service, or by itself after the server refused the credentials. */
  get isStopped(): boolean {
    return this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.periodic);
    const client = this.client;
    this.client = undefined;
    if (client) await client.close();
    await this.queue.catch(() => {});
  }

  /** Work for this account runs one piece at a time, whoever asks (watcher, API, resync). */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.then(
      () => {},
      () => {},
    );
    return result;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { log } = this.manager;
    try {
      const account = await this.manager.account(this.accountId);
      if (!account) return;
      await this.run(() => this.manager.syncNow(account));
      if (this.stopped) return;
      const client = await this.manager.mailboxes.open(account, log, { watch: true });
      if (this.stopped) {
        await client.close();
        return;
      }
      this.client = client;
      const inbox = (await this.manager.inboxPath(this.accountId)) ?? 'INBOX';
      await client.watch(inbox, {
        changed: () => this.inboxChanged(),
        readChanged: (uid, read) => void this.manager.flagChanged(this.accountId, uid, read),
        closed: () => {
          if (this.client === client) this.client = undefined;
          this.retry();
        },
      });
      this.failures = 0;
      if (!this.periodic) {
        this.periodic = setInterval(() => this.resync(), FULL_SYNC_MS);
        this.periodic.unref();
      }
      // Anything that arrived between the sync and the open.
      this.inboxChanged();
    } catch (error) {
      log.warn({ err: error, accountId: this.accountId }, 'mail watcher failed');
      if ((error instanceof MailConnectError && error.authFailed) || error instanceof OAuthGrantError || error instanceof HostNotAllowedError) {
        // Retrying a refused password, a revoked grant or a host that now points inside the network helps
        // nobody (and can lock the mailbox, or knock on an internal port every few minutes).
        const reason = error instanceof OAuthGrantError ? 'El proveedor retiró el acceso: vuelve a conectar la cuenta' : error.message;
        await this.manager.accounts.markDisconnected(this.accountId, reason).catch(() => {});
        this.stopped = true;
        return;
      }
      const reason = error instanceof MailConnectError ? error.message : 'No se pudo sincronizar el correo';
      await this.manager.accounts.markError(this.accountId, reason).catch(() => {});
      this.retry();
    }
  }

  private inboxChanged(): void {
    if (this.pendingInbox || this.stopped) return;
    this.pendingInbox = true;
    void this.run(async () => {
      this.pendingInbox = false;
      const account = await this.manager.account(this.accountId);
      if (account && !this.stopped) await this.manager.syncNow(account, ['inbox']);
    }).catch((error: unknown) => this.manager.log.warn({ err: error, accountId: this.accountId }, 'inbox sync failed'));
  }

  /**
   * Brings `only` these folders (all when omitted) up to date in this account's queue: after any sync in
   * progress, so what another replica changed on the server is read after the older state it may have read.
   */
  resync(only?: MailFolder[]): void {
    void this.run(async () => {
      const account = await this.manager.account(this.accountId);
      if (account && !this.stopped) await this.manager.syncNow(account, only);
    }).catch((error: unknown) => this.manager.log.warn({ err: error, accountId: this.accountId }, 'mail sync failed'));
  }

  private retry(): void {
    if (this.stopped) return;
    this.failures += 1;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(this.failures, 10));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }
}
