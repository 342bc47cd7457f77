import type { MailProviderName } from '@asistente/contracts';
import type { Sql } from '@asistente/kit';
import type { AccountRow, ServerSettings } from './account.js';

export interface NewAccount {
  provider: MailProviderName;
  email: string;
  imap: ServerSettings;
  smtp: ServerSettings;
  credentialsEnc: string;
}

/** `email.accounts`: one row per connected mailbox. */
export class AccountsRepository {
  constructor(private readonly sql: Sql) {}

  private columns() {
    return this.sql`id, user_id, provider, email, imap_host, imap_port, imap_secure, imap_user,
      smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc, connected, last_sync_at, error`;
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

  /** Reconnecting the same address replaces its settings and credentials and keeps its mail. */
  async upsert(userId: string, account: NewAccount): Promise<AccountRow> {
    const { imap, smtp } = account;
    const [row] = await this.sql<AccountRow[]>`
      insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user,
        smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc)
      values (${userId}, ${account.provider}, ${account.email}, ${imap.host}, ${imap.port}, ${imap.secure}, ${imap.user},
        ${smtp.host}, ${smtp.port}, ${smtp.secure}, ${smtp.user}, ${account.credentialsEnc})
      on conflict (user_id, provider, lower(email)) do update set
        imap_host = excluded.imap_host, imap_port = excluded.imap_port, imap_secure = excluded.imap_secure,
        imap_user = excluded.imap_user, smtp_host = excluded.smtp_host, smtp_port = excluded.smtp_port,
        smtp_secure = excluded.smtp_secure, smtp_user = excluded.smtp_user,
        credentials_enc = excluded.credentials_enc, connected = true, error = null, updated_at = now()
      returning ${this.columns()}`;
    return row!;
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

  async markError(id: string, error: string): Promise<void> {
    await this.sql`update email.accounts set error = ${error} where id = ${id}`;
  }

  /** Deleting the account cascades to its folders, messages and attachments. */
  async delete(userId: string, id: string): Promise<boolean> {
    const rows = await this.sql`delete from email.accounts where user_id = ${userId} and id = ${id} returning id`;
    return rows.length > 0;
  }
}
