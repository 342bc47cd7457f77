import { CoalescedRead } from '../db/coalesced-read.js';
import type { Database, Sql, TransactionSql } from '../db/database.js';
import { isExchangedFrom } from './exchanged-tokens.js';

/** What a token says about itself, as the check needs it. */
export interface TokenIdentity {
  /** The user id (`sub`), already checked to be a uuid. */
  id: string;
  /** The workspace it acts in (`wid`, or the person's own for a token from before workspaces). */
  workspaceId: string;
  jti: string;
  /** When it was issued, milliseconds since the epoch. */
  issuedAtMs: number;
}

/**
 * Sessions ended by logout (one token id) or by a password change (every
 * token of the user issued before `before`, except `keepJti`, the session
 * that made the change). Live streams listen for it to close themselves.
 */
export interface SessionsEnded {
  userId: string;
  jti?: string;
  before?: number;
  keepJti?: string | null;
  /** A personal access token was revoked: the sessions the gateway exchanged it for end too. */
  personalTokenId?: string;
  /** Only the sessions acting in this workspace end (the person left it). */
  workspaceId?: string;
}

/** A user's "tokens valid after" mark (`platform.user_sessions`, one row per existing user). */
interface UserMark {
  validAfterMs: number;
  keptJti: string | null;
}

/**
 * Revoked token ids live in `platform.revoked_tokens` and the per-user marks
 * in `platform.user_sessions` (a row per user, written by a trigger on
 * `auth.users`), the tables every service may read: a token signed by auth
 * must stop working everywhere the moment its owner logs out or changes the
 * password, and a token for a user that does not exist works nowhere.
 */
export class Revocations {
  private readonly listeners = new Set<(ended: SessionsEnded) => void>();
  /** Test helper only (signToken): users this process takes as existing without a row. */
  private readonly vouched = new Set<string>();
  /**
   * The requests a client sends at once (a screen's parallel reads) carry the same token: they share one
   * check, never one begun before they arrived, so a logout committed earlier is always seen.
   */
  private readonly checks = new CoalescedRead<boolean>();

  constructor(protected readonly sql: Sql) {}

  /**
   * The embedded database belongs to a single process, so every logout goes
   * through it: the revoked ids it loads once and then records itself are the
   * whole truth, and a request needs no query to check its token.
   */
  static async for(db: Database): Promise<Revocations> {
    if (db.kind !== 'pglite') return new Revocations(db.sql);
    const rows = await db.sql<{ jti: string; expiresAt: Date }[]>`
      select jti, expires_at from platform.revoked_tokens where expires_at > now()`;
    return new LocalRevocations(db.sql, new Map(rows.map((r) => [r.jti, r.expiresAt.getTime()])));
  }

  /** Called with every ending this process records (the platform relays it to the other processes). */
  onEnded(listener: (ended: SessionsEnded) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected ended(notice: SessionsEnded): void {
    for (const listener of this.listeners) listener(notice);
  }

  async revoke(jti: string, userId: string, expiresAt: Date): Promise<void> {
    await this.sql`
      insert into platform.revoked_tokens (jti, user_id, expires_at)
      values (${jti}, ${userId}, ${expiresAt}) on conflict (jti) do nothing`;
    await this.sql`delete from platform.revoked_tokens where expires_at < now()`;
    this.ended({ userId, jti });
  }

  /**
   * Every token of `userId` issued until now stops working, except `keepJti` (the caller's own session).
   * In `tx` when the ending belongs to a larger change (a new password): whoever locks the user's row after
   * it then sees the sessions ended, never the password changed with them still open.
   */
  async endOtherSessions(userId: string, keepJti: string | null, at: Date = new Date(), tx: Sql | TransactionSql = this.sql): Promise<void> {
    await tx`
      insert into platform.user_sessions (user_id, valid_after, kept_jti) values (${userId}, ${at}, ${keepJti})
      on conflict (user_id) do update set valid_after = excluded.valid_after, kept_jti = excluded.kept_jti`;
    await this.afterEnding(userId, { validAfterMs: at.getTime(), keptJti: keepJti });
    this.ended({ userId, before: at.getTime(), keepJti });
  }

  protected async afterEnding(_userId: string, _mark: UserMark): Promise<void> {}

  /**
   * The user's row (and with it its `platform.user_sessions` mark) was deleted: no token of theirs works
   * anywhere from now on. Every process is told, so live streams close and no kept mark outlives the user.
   */
  async userDeleted(userId: string): Promise<void> {
    this.forget(userId);
    this.ended({ userId, before: Number.MAX_SAFE_INTEGER, keepJti: null });
  }

  protected forget(_userId: string): void {}

  /**
   * The person left the workspace (removed, or the workspace deleted): their tokens for it already fail on
   * the next check (their membership row is gone); every process is told, so live streams opened with them close.
   */
  memberLeft(workspaceId: string, userId: string): void {
    this.forgetMember(workspaceId, userId);
    this.ended({ userId, workspaceId, before: Number.MAX_SAFE_INTEGER, keepJti: null });
  }

  protected forgetMember(_workspaceId: string, _userId: string): void {}

  protected memberSessionsEnded(_workspaceId: string, _userId: string, _atMs: number): void {}

  /**
   * Ends the person's sessions in one workspace, issued until now (their role changed: a new session carries
   * the new one). In `tx` with the change, so no token with the old role outlives it.
   */
  async endMemberSessions(workspaceId: string, userId: string, tx: Sql | TransactionSql = this.sql, at: Date = new Date()): Promise<void> {
    await tx`update platform.memberships set valid_after = ${at} where workspace_id = ${workspaceId} and user_id = ${userId}`;
    this.memberSessionsEnded(workspaceId, userId, at.getTime());
    this.ended({ userId, workspaceId, before: at.getTime(), keepJti: null });
  }

  /**
   * A personal access token was revoked (its row deleted, so no gateway exchanges it again): every process is
   * told, so the live streams opened with it close at once instead of outliving it.
   */
  personalTokenRevoked(userId: string, personalTokenId: string): void {
    this.ended({ userId, personalTokenId });
  }

  async isRevoked(jti: string): Promise<boolean> {
    const rows = await this.sql`select 1 from platform.revoked_tokens where jti = ${jti}`;
    return rows.length > 0;
  }

  /** Whether the token may still be used: its user exists, it was not logged out nor ended by a password change. */
  async isValid(token: TokenIdentity): Promise<boolean> {
    if (this.vouched.has(token.id)) return !(await this.isRevoked(token.jti));
    return this.checks.read(`${token.id} ${token.workspaceId} ${token.jti} ${token.issuedAtMs}`, () => this.readValidity(token));
  }

  private async readValidity(token: TokenIdentity): Promise<boolean> {
    const [row] = await this.sql<{ validAfter: Date | null; keptJti: string | null; known: boolean; revoked: boolean; memberSince: Date | null }[]>`
      select s.valid_after, s.kept_jti, s.user_id is not null as known,
             exists (select 1 from platform.revoked_tokens where jti = ${token.jti}) as revoked,
             (select m.valid_after from platform.memberships m where m.workspace_id = ${token.workspaceId} and m.user_id = ${token.id}) as member_since
      from (select 1) as one left join platform.user_sessions s on s.user_id = ${token.id}`;
    if (!row?.known || row.revoked || row.memberSince === null || token.issuedAtMs < row.memberSince.getTime()) return false;
    return allowedBy({ validAfterMs: row.validAfter?.getTime() ?? 0, keptJti: row.keptJti }, token);
  }

  /**
   * For tests that sign tokens for made-up users (`signToken`): this process
   * treats `userId` as an existing user. Nothing in the product calls it.
   */
  vouchForTestUser(userId: string): void {
    this.vouched.add(userId);
  }

  protected isVouched(userId: string): boolean {
    return this.vouched.has(userId);
  }
}

export function endedSessionCovers(ended: SessionsEnded, token: { id: string; workspaceId: string; jti: string; issuedAtMs: number }): boolean {
  if (ended.userId !== token.id) return false;
  if (ended.workspaceId !== undefined && ended.workspaceId !== token.workspaceId) return false;
  if (ended.personalTokenId !== undefined) return isExchangedFrom(token.jti, ended.personalTokenId);
  if (ended.jti !== undefined) return ended.jti === token.jti;
  if (ended.before === undefined) return false;
  return token.issuedAtMs < ended.before && token.jti !== ended.keepJti;
}

function allowedBy(mark: UserMark, token: TokenIdentity): boolean {
  return token.issuedAtMs >= mark.validAfterMs || token.jti === mark.keptJti;
}

class LocalRevocations extends Revocations {
  /** Per-user marks read once and then kept current by this process's own writes (it is the only writer). */
  private readonly marks = new Map<string, UserMark | null>();
  /** `workspace person` pairs known to be members, with when their sessions there start counting; dropped when that changes. */
  private readonly members = new Map<string, number>();

  constructor(
    sql: Sql,
    private readonly revoked: Map<string, number>,
  ) {
    super(sql);
  }

  override async revoke(jti: string, userId: string, expiresAt: Date): Promise<void> {
    const now = Date.now();
    for (const [id, expires] of this.revoked) if (expires < now) this.revoked.delete(id);
    this.revoked.set(jti, expiresAt.getTime());
    await super.revoke(jti, userId, expiresAt);
  }

  protected override async afterEnding(userId: string, mark: UserMark): Promise<void> {
    this.marks.set(userId, mark);
  }

  protected override forget(userId: string): void {
    this.marks.delete(userId);
    for (const pair of this.members.keys()) if (pair.endsWith(` ${userId}`)) this.members.delete(pair);
  }

  protected override forgetMember(workspaceId: string, userId: string): void {
    this.members.delete(`${workspaceId} ${userId}`);
  }

  /** Kept at the new mark (not forgotten): a read racing the uncommitted change would cache the old one. */
  protected override memberSessionsEnded(workspaceId: string, userId: string, atMs: number): void {
    this.members.set(`${workspaceId} ${userId}`, atMs);
  }

  override async isRevoked(jti: string): Promise<boolean> {
    return this.revoked.has(jti);
  }

  override async isValid(token: TokenIdentity): Promise<boolean> {
    if (this.revoked.has(token.jti)) return false;
    if (this.isVouched(token.id)) return true;
    let mark = this.marks.get(token.id);
    if (mark === undefined || mark === null) {
      // A miss (or a user not there yet: registered since) is read again; users are few embedded.
      const [row] = await this.sql<{ validAfter: Date; keptJti: string | null }[]>`
        select valid_after, kept_jti from platform.user_sessions where user_id = ${token.id}`;
      mark = row ? { validAfterMs: row.validAfter.getTime(), keptJti: row.keptJti } : null;
      if (mark) this.marks.set(token.id, mark);
    }
    return mark !== null && allowedBy(mark, token) && (await this.isMember(token));
  }

  /** A miss is read again (a member who joined since); what is found stays until the membership changes here. */
  private async isMember(token: TokenIdentity): Promise<boolean> {
    const pair = `${token.workspaceId} ${token.id}`;
    let since = this.members.get(pair);
    if (since === undefined) {
      const [row] = await this.sql<{ validAfter: Date }[]>`
        select valid_after from platform.memberships where workspace_id = ${token.workspaceId} and user_id = ${token.id}`;
      if (!row) return false;
      since = row.validAfter.getTime();
      this.members.set(pair, since);
    }
    return token.issuedAtMs >= since;
  }
}
