import type { MailProviderName } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';
import type { AccountRow, ServerSettings } from './account.js';

export interface NewAccount {
  provider: MailProviderName;
  email: string;
  imap: ServerSettings;
  smtp: ServerSettings;
  credentialsEnc: string;
}

/** Storing the account would pass the user's limit (upsert's `maxAccounts`). */
export class AccountLimitReached extends Error {
  constructor() {
    super('mail account limit reached');
    this.name = 'AccountLimitReached';
  }
}

/** `email.accounts`: one row per connected mailbox. */
export class AccountsRepository {
  constructor(private readonly sql: Sql) {}

  private columns(sql: TransactionSql | Sql = this.sql) {
    return sql`id, user_id, provider, email, imap_host, imap_port, imap_secure, imap_user,
      smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc, connected, last_sync_at, error,
      track_default, sync_total, sync_stored`;
  }

  list(userId: string): Promise<AccountRow[]> {
    return this.sql<AccountRow[]>`
      select ${this.columns()} from email.accounts where user_id = ${userId} order by created_at, id`;
  }

  async find(userId: string, id: string): Promise<AccountRow | undefined> {
    const [row] = await this.sql<AccountRow[]>`
      select ${this.columns()} from email.accounts where user_id = ${userId} and id = ${id}`;
    return row;
  }

  async byId(id: string): Promise<AccountRow | undefined> {
    const [row] = await this.sql<AccountRow[]>`select ${this.columns()} from email.accounts where id = ${id}`;
    return row;
  }

  /** Every connected account, for the watchers started with the service. */
  connected(): Promise<AccountRow[]> {
    return this.sql<AccountRow[]>`select ${this.columns()} from email.accounts where connected order by created_at`;
  }

  /** Whether `account` would be one more than `maxAccounts` (reconnecting an address already here never is). */
  async full(
    userId: string,
    account: Pick<NewAccount, 'provider' | 'email'>,
    maxAccounts: number,
    tx: TransactionSql | Sql = this.sql,
  ): Promise<boolean> {
    const [row] = await tx<{ known: boolean; accounts: string }[]>`
      select exists (select 1 from email.accounts
                     where user_id = ${userId} and provider = ${account.provider} and lower(email) = lower(${account.email})) as known,
             (select count(*) from email.accounts where user_id = ${userId}) as accounts`;
    return !row!.known && Number(row!.accounts) >= maxAccounts;
  }

  /**
   * Reconnecting the same address replaces its settings and credentials and keeps its mail. A new address
   * beyond `maxAccounts` is not stored: AccountLimitReached.
   */
  /** `alongside` runs in the insert's transaction (the security log's line of the connection). */
  async upsert(
    userId: string,
    account: NewAccount,
    maxAccounts = Number.POSITIVE_INFINITY,
    alongside: (tx: TransactionSql, row: AccountRow) => Promise<void> = async () => {},
  ): Promise<AccountRow> {
    const { imap, smtp } = account;
    return this.sql.begin(async (tx) => {
      // Two connects at once would each count the other's row as missing: one user's count and insert run
      // one at a time under a lock of theirs (held until commit).
      await tx`select pg_advisory_xact_lock(hashtextextended(${`email.accounts:${userId}`}, 0))`;
      if (await this.full(userId, account, maxAccounts, tx)) throw new AccountLimitReached();
      const [row] = await tx<AccountRow[]>`
        insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user,
          smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc)
        values (${userId}, ${account.provider}, ${account.email}, ${imap.host}, ${imap.port}, ${imap.secure}, ${imap.user},
          ${smtp.host}, ${smtp.port}, ${smtp.secure}, ${smtp.user}, ${account.credentialsEnc})
        on conflict (user_id, provider, lower(email)) do update set
          imap_host = excluded.imap_host, imap_port = excluded.imap_port, imap_secure = excluded.imap_secure,
          imap_user = excluded.imap_user, smtp_host = excluded.smtp_host, smtp_port = excluded.smtp_port,
          smtp_secure = excluded.smtp_secure, smtp_user = excluded.smtp_user,
          credentials_enc = excluded.credentials_enc, connected = true, error = null, updated_at = now()
        returning ${this.columns(tx)}`;
      await alongside(tx, row!);
      return row!;
    });
  }

  async updateCredentials(id: string, credentialsEnc: string): Promise<void> {
    await this.sql`update email.accounts set credentials_enc = ${credentialsEnc}, updated_at = now() where id = ${id}`;
  }

  async markSynced(id: string): Promise<void> {
    await this.sql`update email.accounts set last_sync_at = now(), error = null where id = ${id}`;
  }

  /** The server refused the credentials: no more retries until the owner connects the account again. */
  async markDisconnected(id: string, error: string): Promise<void> {
    await this.sql`update email.accounts set connected = false, error = ${error} where id = ${id}`;
  }

  async setTracking(userId: string, id: string, tracking: boolean): Promise<AccountRow | undefined> {
    const [row] = await this.sql<AccountRow[]>`
      update email.accounts set track_default = ${tracking}, updated_at = now() where user_id = ${userId} and id = ${id}
      returning ${this.columns()}`;
    return row;
  }

  /** A first sync's window is known: `total` mails to store, none yet. */
  async syncStarted(id: string, total: number): Promise<void> {
    await this.sql`update email.accounts set sync_total = ${total}, sync_stored = 0 where id = ${id}`;
  }

  /** `count` more of the window stored (in the transaction that stored them, so the count never runs ahead). */
  async syncAdvanced(tx: TransactionSql | Sql, id: string, count: number): Promise<void> {
    await tx`update email.accounts set sync_stored = sync_stored + ${count} where id = ${id} and sync_total is not null`;
  }

  async syncEnded(id: string): Promise<void> {
    await this.sql`update email.accounts set sync_total = null, sync_stored = null where id = ${id} and sync_total is not null`;
  }

  async markError(id: string, error: string): Promise<void> {
    await this.sql`update email.accounts set error = ${error} where id = ${id}`;
  }

  /** Deleting the account cascades to its folders, messages and attachments. */
  /** `alongside` runs in the delete's transaction when a row was deleted (the security log's line). */
  async delete(userId: string, id: string, alongside: (tx: TransactionSql, email: string) => Promise<void> = async () => {}): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      const [gone] = await tx<{ email: string }[]>`delete from email.accounts where user_id = ${userId} and id = ${id} returning email`;
      if (gone) await alongside(tx, gone.email);
      return gone !== undefined;
    });
  }
}
