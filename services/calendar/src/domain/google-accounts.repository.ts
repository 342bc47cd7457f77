import type { Sql, TransactionSql } from '@asistente/kit';

export interface GoogleAccountRow {
  email: string;
  accessTokenEnc: string | null;
  refreshTokenEnc: string | null;
  expiresAt: Date | null;
  scope: string | null;
  revokedAt: Date | null;
  calendarsSyncedAt: Date | null;
}

export interface SealedTokens {
  accessTokenEnc: string | null;
  refreshTokenEnc: string | null;
  expiresAt: Date | null;
  scope: string | null;
}

/** `calendar.google_accounts`: one Google connection per user, tokens sealed before they get here. */
export class GoogleAccountsRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string): Promise<GoogleAccountRow | undefined> {
    const [row] = await this.sql<GoogleAccountRow[]>`
      select email, access_token_enc, refresh_token_enc, expires_at, scope, revoked_at, calendars_synced_at
      from calendar.google_accounts where user_id = ${userId}`;
    return row;
  }

  /** A new connection replaces the old one and clears a revoked mark. */
  async connect(userId: string, email: string, tokens: SealedTokens, tx: Sql | TransactionSql = this.sql): Promise<void> {
    await tx`
      insert into calendar.google_accounts (user_id, email, access_token_enc, refresh_token_enc, expires_at, scope)
      values (${userId}, ${email}, ${tokens.accessTokenEnc}, ${tokens.refreshTokenEnc}, ${tokens.expiresAt}, ${tokens.scope})
      on conflict (user_id) do update set
        email = excluded.email,
        access_token_enc = excluded.access_token_enc,
        refresh_token_enc = coalesce(excluded.refresh_token_enc, calendar.google_accounts.refresh_token_enc),
        expires_at = excluded.expires_at,
        scope = excluded.scope,
        revoked_at = null,
        updated_at = now()`;
  }

  /** After the client refreshed the access token (Google may also hand a new refresh token). */
  async refreshed(userId: string, tokens: SealedTokens): Promise<void> {
    await this.sql`
      update calendar.google_accounts set
        access_token_enc = ${tokens.accessTokenEnc},
        refresh_token_enc = coalesce(${tokens.refreshTokenEnc}, refresh_token_enc),
        expires_at = ${tokens.expiresAt},
        updated_at = now()
      where user_id = ${userId} and revoked_at is null`;
  }

  /** Google refused the grant: keep the address (the screen names it) but nothing usable. */
  async markRevoked(userId: string): Promise<void> {
    await this.sql`
      update calendar.google_accounts
      set revoked_at = now(), access_token_enc = null, refresh_token_enc = null, updated_at = now()
      where user_id = ${userId}`;
  }

  async markCalendarsSynced(userId: string): Promise<void> {
    await this.sql`update calendar.google_accounts set calendars_synced_at = now() where user_id = ${userId}`;
  }

  /** Forgets the account and its mirror. */
  /** `alongside` runs in the same transaction (the security log's line of the disconnection). */
  async delete(userId: string, alongside: (tx: TransactionSql) => Promise<void> = async () => {}): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`delete from calendar.calendars where user_id = ${userId}`;
      await tx`delete from calendar.google_accounts where user_id = ${userId}`;
      await alongside(tx);
    });
  }
}
