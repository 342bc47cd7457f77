import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface OAuthState {
  userId: string;
  /** Which flow issued it (`google`, `microsoft`, `email-gmail`…): a state from one flow never completes another. */
  flow: string;
  /** SHA-256 of the nonce in the starting browser's cookie: only that browser can finish the flow. */
  browser: string;
}

/** A verified state: what was signed, plus its one-time id and its expiry. */
export interface VerifiedOAuthState extends OAuthState {
  id: string;
  expiresAt: number;
}

/** Long enough to pick an account and consent, short enough that a leaked URL soon means nothing. */
export const STATE_TTL_MS = 10 * 60_000;

/**
 * The `state` of an OAuth authorization-code flow: signed (HMAC-SHA256 with a
 * key derived from the JWT secret), bound to the user, the flow and the
 * starting browser's nonce, short-lived, and carrying a random id so a
 * callback can consume it once (see oauth-flow.ts).
 */
export class OAuthStateSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('asistente oauth state v2').digest();
  }

  sign(state: OAuthState, now = Date.now()): string {
    const claims = { u: state.userId, f: state.flow, b: state.browser, e: now + STATE_TTL_MS, i: randomBytes(16).toString('base64url') };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The state's claims when `token` is genuine, unexpired and issued for `flow`; undefined otherwise. */
  verify(token: string, flow: string, now = Date.now()): VerifiedOAuthState | undefined {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      const { u, f, b, e, i } = claims;
      if (typeof u !== 'string' || f !== flow || typeof b !== 'string' || typeof i !== 'string' || typeof e !== 'number' || e < now) return undefined;
      return { userId: u, flow, browser: b, id: i, expiresAt: e };
    } catch {
      return undefined;
    }
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
