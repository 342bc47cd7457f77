import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../db/database.js';
import { OAuthStateSigner, STATE_TTL_MS } from './oauth-state.js';
import { UsedOAuthStates } from './used-oauth-states.js';

/** The cookie holding the starting browser's nonce; scoped to one callback path, so flows never see each other's. */
export const OAUTH_BROWSER_COOKIE = 'asistente_oauth';

/** What the answer handing out the consent URL needs: the state, the PKCE challenge and the cookie to set. */
export interface OAuthStart {
  state: string;
  /** S256 of the code verifier, for the authorization URL (`code_challenge`). */
  codeChallenge: string;
  /** A whole `Set-Cookie` value. */
  cookie: string;
}

/** Why a callback was refused: a state we never signed (or expired), another browser, or a second use. */
export type OAuthRefusal = 'invalid' | 'browser' | 'replayed';

export type OAuthFinish = { ok: true; userId: string; codeVerifier: string } | { ok: false; reason: OAuthRefusal };

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Every value of cookie `name` in a `Cookie` header (a browser may send several, one per matching path). */
function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
}

/**
 * One OAuth authorization-code flow (Google Calendar, Gmail, Outlook, Microsoft 365), bound to the browser
 * that started it and used once:
 * - start: a random nonce goes to the browser in an HttpOnly, SameSite=Lax cookie scoped to the callback
 *   path; the signed state carries its hash, so a consent link sent to someone else lands in a browser
 *   without the cookie and connects nothing;
 * - PKCE (S256): the verifier is an HMAC of the nonce under the server's key, so only this server, with
 *   that browser's cookie, can redeem the code;
 * - finish: the state is consumed in PostgreSQL before any code is exchanged, across replicas.
 */
export class OAuthFlow {
  private readonly path: string;
  private readonly secure: boolean;

  constructor(
    readonly name: string,
    callbackUrl: string,
    private readonly signer: OAuthStateSigner,
    private readonly used: UsedOAuthStates,
    private readonly key: Buffer,
  ) {
    const url = new URL(callbackUrl);
    this.path = url.pathname;
    this.secure = url.protocol === 'https:';
  }

  start(userId: string): OAuthStart {
    const nonce = randomBytes(32).toString('base64url');
    const state = this.signer.sign({ userId, flow: this.name, browser: sha256(nonce) });
    return {
      state,
      codeChallenge: sha256(this.codeVerifier(nonce)),
      cookie: this.cookie(nonce, Math.floor(STATE_TTL_MS / 1000)),
    };
  }

  /** Checks the state against the browser's `Cookie` header and spends it; only then may a code be exchanged. */
  async finish(state: string | undefined, cookieHeader: string | undefined): Promise<OAuthFinish> {
    const claims = state ? this.signer.verify(state, this.name) : undefined;
    if (!claims) return { ok: false, reason: 'invalid' };
    const expected = Buffer.from(claims.browser);
    const nonce = cookieValues(cookieHeader, OAUTH_BROWSER_COOKIE).find((value) => {
      const given = Buffer.from(sha256(value));
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (nonce === undefined) return { ok: false, reason: 'browser' };
    if (!(await this.used.consume(claims.id, claims.expiresAt))) return { ok: false, reason: 'replayed' };
    return { ok: true, userId: claims.userId, codeVerifier: this.codeVerifier(nonce) };
  }

  /** The `Set-Cookie` value that removes the nonce: the callback sends it whatever the outcome. */
  get clearCookie(): string {
    return this.cookie('', 0);
  }

  /** 43 base64url characters, as RFC 7636 asks (43 to 128 of [A-Za-z0-9-._~]). */
  private codeVerifier(nonce: string): string {
    return createHmac('sha256', this.key).update(`pkce ${this.name} ${nonce}`).digest('base64url');
  }

  private cookie(value: string, maxAgeSeconds: number): string {
    const attributes = [`${OAUTH_BROWSER_COOKIE}=${value}`, `Path=${this.path}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
    if (this.secure) attributes.push('Secure');
    return attributes.join('; ');
  }
}

/** A service's OAuth flows: one signer and one PKCE key from the JWT secret, one used-states table in its schema. */
export class OAuthFlows {
  private readonly signer: OAuthStateSigner;
  private readonly used: UsedOAuthStates;
  private readonly key: Buffer;

  constructor(secret: string, sql: Sql, schema: string) {
    this.signer = new OAuthStateSigner(secret);
    this.used = new UsedOAuthStates(sql, schema);
    this.key = createHmac('sha256', secret).update('asistente oauth pkce v1').digest();
  }

  /** `callbackUrl` is the redirect URI as the browser sees it (PUBLIC_URL + /api/…): the cookie's path and Secure. */
  flow(name: string, callbackUrl: string): OAuthFlow {
    return new OAuthFlow(name, callbackUrl, this.signer, this.used, this.key);
  }
}
