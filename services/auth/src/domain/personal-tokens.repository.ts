import { WORKSPACE_ROLES, type PersonalToken, type PersonalTokenScope, type WorkspaceRole } from '@asistente/contracts';
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
  /** The workspace it acts in and the member's role there (its ceiling). */
  workspaceId: string;
  role: WorkspaceRole;
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
      insert into platform.personal_tokens (id, user_id, workspace_id, role, name, scopes, token_hash, prefix, expires_at)
      values (${token.id}, ${token.userId}, ${token.workspaceId}, ${token.role}, ${token.name}, ${tx.array([...token.scopes])}, ${token.tokenHash}, ${token.prefix}, ${token.expiresAt})`;
    return 'inserted';
  }

  /** The member's tokens for one workspace (a person in two sees each workspace's own). */
  async list(userId: string, workspaceId: string): Promise<PersonalToken[]> {
    const rows = await this.sql<TokenRow[]>`
      select id, name, scopes, prefix, created_at, last_used_at, expires_at from platform.personal_tokens
      where user_id = ${userId} and workspace_id = ${workspaceId} order by created_at desc, id desc`;
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

  /** The member's role there fell to `role`: no token of theirs stays above it (a token is never above its member). */
  async lowerRole(tx: TransactionSql, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    const above = WORKSPACE_ROLES.slice(0, WORKSPACE_ROLES.indexOf(role));
    if (above.length === 0) return;
    await tx`
      update platform.personal_tokens set role = ${role}
      where workspace_id = ${workspaceId} and user_id = ${userId} and role in ${tx(above)}`;
  }

  /** The member left the workspace: their tokens for it go with them. */
  async deleteAllIn(tx: TransactionSql, workspaceId: string, userId: string): Promise<void> {
    await tx`delete from platform.personal_tokens where workspace_id = ${workspaceId} and user_id = ${userId}`;
  }

  /** Deletes the member's token; its name when there was one (another member's or workspace's id finds nothing). */
  async delete(tx: TransactionSql, userId: string, workspaceId: string, id: string): Promise<string | undefined> {
    const [row] = await tx<{ name: string }[]>`
      delete from platform.personal_tokens where id = ${id} and user_id = ${userId} and workspace_id = ${workspaceId} returning name`;
    return row?.name;
  }
}
