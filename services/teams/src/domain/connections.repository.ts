import type { Sql, TransactionSql } from '@asistente/kit';

export interface ConnectionRow {
  id: string;
  userId: string;
  msUserId: string;
  displayName: string;
  email: string;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  expiresAt: Date;
  /** Only from findWithChannel: the channel's team, null when the user never listed that channel. */
  teamId?: string | null;
}

export interface NewConnection {
  msUserId: string;
  displayName: string;
  email: string;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  expiresAt: Date;
  scopes: string;
}

/** `teams.connections`: one Microsoft account per user, tokens sealed. */
export class ConnectionsRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.sql<ConnectionRow[]>`
      select id, user_id, ms_user_id, display_name, email, access_token_enc, refresh_token_enc, expires_at
      from teams.connections where user_id = ${userId}`;
    return row;
  }

  async findWithChannel(userId: string, channelId: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.sql<ConnectionRow[]>`
      select c.id, c.user_id, c.ms_user_id, c.display_name, c.email, c.access_token_enc, c.refresh_token_enc,
             c.expires_at, ch.team_id
      from teams.connections c
      left join teams.channels ch on ch.user_id = c.user_id and ch.channel_id = ${channelId}
      where c.user_id = ${userId}`;
    return row;
  }

  async upsert(userId: string, c: NewConnection, tx: Sql | TransactionSql = this.sql): Promise<void> {
    await tx`
      insert into teams.connections
        (user_id, ms_user_id, display_name, email, access_token_enc, refresh_token_enc, expires_at, scopes)
      values (${userId}, ${c.msUserId}, ${c.displayName}, ${c.email}, ${c.accessTokenEnc}, ${c.refreshTokenEnc},
              ${c.expiresAt}, ${c.scopes})
      on conflict (user_id) do update set
        ms_user_id = excluded.ms_user_id, display_name = excluded.display_name, email = excluded.email,
        access_token_enc = excluded.access_token_enc, refresh_token_enc = excluded.refresh_token_enc,
        expires_at = excluded.expires_at, scopes = excluded.scopes, updated_at = now()`;
  }

  /** After a refresh; a refresh that answered no new refresh token keeps the stored one. */
  async updateTokens(userId: string, accessTokenEnc: string, refreshTokenEnc: string | null, expiresAt: Date): Promise<void> {
    await this.sql`
      update teams.connections set
        access_token_enc = ${accessTokenEnc},
        refresh_token_enc = coalesce(${refreshTokenEnc}, refresh_token_enc),
        expires_at = ${expiresAt}, updated_at = now()
      where user_id = ${userId}`;
  }

  /** The connection's address when there was one; `alongside` runs in the same transaction (the security log's line). */
  async delete(userId: string, alongside: (tx: TransactionSql, email: string) => Promise<void> = async () => {}): Promise<void> {
    await this.sql.begin(async (tx) => {
      const gone = await tx<{ email: string }[]>`delete from teams.connections where user_id = ${userId} returning email`;
      await tx`delete from teams.channels where user_id = ${userId}`;
      if (gone[0]) await alongside(tx, gone[0].email);
    });
  }
}
