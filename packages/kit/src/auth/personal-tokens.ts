import { createHash, randomBytes } from 'node:crypto';
import { isWorkspaceRole, PERSONAL_TOKEN_PREFIX, PERSONAL_TOKEN_SCOPES, type PersonalTokenScope, type WorkspaceRole } from '@asistente/contracts';
import { LruMap } from '../cache/lru-map.js';
import { CoalescedRead } from '../db/coalesced-read.js';
import { createSigner } from 'fast-jwt';
import type { Database, Sql } from '../db/database.js';
import type { TokenSettings } from './plugin.js';
import type { Revocations, SessionsEnded } from './revocations.js';
import { exchangedTokenJti } from './exchanged-tokens.js';

/** 32 random bytes in base64url, without padding. */
const SECRET_LENGTH = 43;
const TOKEN_SHAPE = new RegExp(`^${PERSONAL_TOKEN_PREFIX}[A-Za-z0-9_-]{${SECRET_LENGTH}}$`);
/** The characters of the secret kept beside the hash so the owner can tell one token from another. */
const DISPLAYED_SECRET_CHARS = 6;
/** lastUsedAt is written at most this often per token: a token in a busy script costs no write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** Tokens whose last write this process remembers (the ones in use at once). */
const TOUCHED_REMEMBERED = 10_000;

export interface NewPersonalToken {
  /** The text the owner copies once: `asis_pat_` and 43 base64url characters. */
  token: string;
  /** What is stored in its place. */
  hash: string;
  /** What the owner sees of it later. */
  prefix: string;
}

/**
 * A token is 256 random bits: nobody guesses it, so its SHA-256 is as safe to store as a slow password hash,
 * and the gateway can find it with one indexed read per request.
 */
export function newPersonalToken(): NewPersonalToken {
  const token = `${PERSONAL_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashPersonalToken(token), prefix: token.slice(0, PERSONAL_TOKEN_PREFIX.length + DISPLAYED_SECRET_CHARS) };
}

export function hashPersonalToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether a bearer token is meant as a personal access token (the gateway exchanges those; a session token is a JWT). */
export function looksLikePersonalToken(token: string): boolean {
  return token.startsWith(PERSONAL_TOKEN_PREFIX);
}

/** The lifetime of the session token a personal token is exchanged for: it never leaves the edge, and each request makes its own. */
export const EXCHANGED_TOKEN_SECONDS = 120;

/**
 * Signs the gateway's exchanged session tokens: the house's claims (`sub`, `wid`, `role`, a fresh `jti`, `ims`) and `scp`,
 * short-lived. One signer made once (@fastify/jwt's sign with per-call options builds a signer every call).
 */
export function exchangedTokenSigner(tokens: TokenSettings): (grant: PersonalTokenGrant) => string {
  const sign = createSigner({ key: tokens.secret, algorithm: 'HS256', iss: tokens.issuer, aud: tokens.audience, expiresIn: EXCHANGED_TOKEN_SECONDS * 1000 });
  return (grant) =>
    sign({ sub: grant.userId, wid: grant.workspaceId, role: grant.role, jti: exchangedTokenJti(grant.id), ims: Date.now(), scp: [...grant.scopes] });
}

/** What a valid personal access token grants. */
export interface PersonalTokenGrant {
  id: string;
  userId: string;
  /** The workspace the token acts in, with its member's role when it was made (lowered with the member's). */
  workspaceId: string;
  role: WorkspaceRole;
  scopes: readonly PersonalTokenScope[];
}

interface GrantRow {
  id: string;
  userId: string;
  workspaceId: string;
  role: string;
  scopes: string[];
  expired: boolean;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

/**
 * The gateway's read of `platform.personal_tokens` (written by auth). Distributed, nothing is kept between
 * requests: a revoked token (its row deleted) or an expired one fails on the very next request at every
 * gateway, with no notice to relay (the gateway in front of remote services hears no bus). Requests arriving
 * together with one token share a read, never one begun before they came.
 */
export class PersonalTokenLookup {
  private readonly reads = new CoalescedRead<GrantRow | undefined>();
  /** When this process last wrote each token's lastUsedAt (the SQL guard keeps replicas to about the same). */
  private readonly touched = new LruMap<number>(TOUCHED_REMEMBERED);

  /** Public so the gateway counts each token's requests on the same database it finds the token in. */
  constructor(readonly sql: Sql) {}

  /**
   * Embedded, the one process is the only writer and hears every revocation itself: it keeps the tokens it
   * found, and drops one the moment it is revoked (or its owner's sessions end), as `Revocations` keeps marks.
   */
  static for(db: Database, revocations: Revocations): PersonalTokenLookup {
    return db.kind === 'pglite' ? new LocalPersonalTokenLookup(db.sql, revocations) : new PersonalTokenLookup(db.sql);
  }

  /** The token's grant, or undefined when it is malformed, unknown, revoked or expired. */
  async find(token: string, now = Date.now()): Promise<PersonalTokenGrant | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const hash = hashPersonalToken(token);
    const row = await this.lookUp(hash);
    if (!row || row.expired || (row.expiresAt !== null && row.expiresAt.getTime() <= now) || !isWorkspaceRole(row.role)) return undefined;
    await this.touch(row, now);
    // Scopes come from the database as text: anything the contracts do not know grants nothing.
    const scopes = row.scopes.filter((s): s is PersonalTokenScope => (PERSONAL_TOKEN_SCOPES as readonly string[]).includes(s));
    return { id: row.id, userId: row.userId, workspaceId: row.workspaceId, role: row.role, scopes };
  }

  protected lookUp(hash: string): Promise<GrantRow | undefined> {
    return this.reads.read(hash, () => this.read(hash));
  }

  private async read(hash: string): Promise<GrantRow | undefined> {
    const [row] = await this.sql<GrantRow[]>`
      select id, user_id, workspace_id, role, scopes, expires_at is not null and expires_at <= now() as expired, expires_at, last_used_at
      from platform.personal_tokens where token_hash = ${hash}`;
    return row;
  }

  /** Records the use when the stored one is a minute old or more; at most one write a minute per token and process. */
  private async touch(row: GrantRow, now: number): Promise<void> {
    const written = Math.max(this.touched.get(row.id) ?? 0, row.lastUsedAt?.getTime() ?? 0);
    if (now - written < LAST_USED_RESOLUTION_MS) return;
    this.touched.set(row.id, now);
    await this.sql`
      update platform.personal_tokens set last_used_at = now()
      where id = ${row.id} and (last_used_at is null or last_used_at < now() - make_interval(secs => ${LAST_USED_RESOLUTION_MS / 1000}))`;
  }
}

/** Tokens the embedded process keeps (every token of its few users, in practice). */
const KEPT_GRANTS = 10_000;

class LocalPersonalTokenLookup extends PersonalTokenLookup {
  private readonly kept = new Map<string, GrantRow>();

  constructor(sql: Sql, revocations: Revocations) {
    super(sql);
    revocations.onEnded((ended) => this.forget(ended));
  }

  protected override async lookUp(hash: string): Promise<GrantRow | undefined> {
    const kept = this.kept.get(hash);
    if (kept) return kept;
    const row = await super.lookUp(hash);
    if (row) {
      if (this.kept.size >= KEPT_GRANTS) this.kept.clear();
      this.kept.set(hash, row);
    }
    return row;
  }

  /** A revoked token goes; so do a user's tokens when their sessions end (deleted account, password change: read again). */
  private forget(ended: SessionsEnded): void {
    for (const [hash, row] of this.kept) {
      const revoked = ended.personalTokenId !== undefined ? row.id === ended.personalTokenId : ended.jti === undefined && row.userId === ended.userId;
      if (revoked) this.kept.delete(hash);
    }
  }
}
