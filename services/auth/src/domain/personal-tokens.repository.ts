import type { PersonalToken, PersonalTokenScope } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

interface TokenRow {
  id: string;
  name: string;
  scopes: PersonalTokenScope[];
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

/** The session creating a token, as its token says (`jti`, issued at in milliseconds). */
export interface SessionIdentity {
  jti: string;
  issuedAtMs: number;
}

export interface NewTokenRow {
  id: string;
  userId: string;
  name: string;
  scopes: readonly PersonalTokenScope[];
  tokenHash: string;
  prefix: string;
  expiresAt: Date | null;
}

const toToken = (r: TokenRow): PersonalToken => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  prefix: r.prefix,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  expiresAt: r.expiresAt?.toISOString() ?? null,
});

/** platform.personal_tokens: auth is its only writer; the gateway reads it (PersonalTokenLookup in the kit). */
export class PersonalTokensRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Inserts the token unless the user already holds `max` ('full'), or the session asking was ended meanwhile
   * ('ended'). Locks the user's row, so two creations cannot both pass, and a creation racing with a password
   * change waits for it and then sees the session it came from ended (the change ends them under that lock).
   */
  async insert(tx: TransactionSql, token: NewTokenRow, max: number, session: SessionIdentity): Promise<'inserted' | 'full' | 'ended'> {
    await tx`select 1 from auth.users where id = ${token.userId} for update`;
    const [open] = await tx`
      select 1 from platform.user_sessions
      where user_id = ${token.userId} and (valid_after <= ${new Date(session.issuedAtMs)} or kept_jti = ${session.jti})`;
    if (!open) return 'ended';
    const [held] = await tx<{ n: string }[]>`select count(*) as n from platform.personal_tokens where user_id = ${token.userId}`;
    if (Number(held?.n ?? 0) >= max) return 'full';
    await tx`
      insert into platform.personal_tokens (id, user_id, name, scopes, token_hash, prefix, expires_at)
      values (${token.id}, ${token.userId}, ${token.name}, ${tx.array([...token.scopes])}, ${token.tokenHash}, ${token.prefix}, ${token.expiresAt})`;
    return 'inserted';
  }

  async list(userId: string): Promise<PersonalToken[]> {
    const rows = await this.sql<TokenRow[]>`
      select id, name, scopes, prefix, created_at, last_used_at, expires_at from platform.personal_tokens
      where user_id = ${userId} order by created_at desc, id desc`;
    return rows.map(toToken);
  }

  /**
   * Deletes every token of the user (a new password: whoever held one loses it); answers how many of them
   * still worked (not expired), the number the owner was told and the security log keeps.
   */
  async deleteAllOf(tx: TransactionSql, userId: string): Promise<number> {
    const [row] = await tx<{ working: number }[]>`
      with gone as (delete from platform.personal_tokens where user_id = ${userId} returning expires_at)
      select (count(*) filter (where expires_at is null or expires_at > now()))::int as working from gone`;
    return row?.working ?? 0;
  }

  /** Deletes the user's token; its name when there was one (another user's id finds nothing). */
  async delete(tx: TransactionSql, userId: string, id: string): Promise<string | undefined> {
    const [row] = await tx<{ name: string }[]>`
      delete from platform.personal_tokens where id = ${id} and user_id = ${userId} returning name`;
    return row?.name;
  }
}
