import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface OAuthState {
  userId: string;
  /** Which flow issued it (`google`, `microsoft`, `gmail`…): a state from one flow never completes another. */
  flow: string;
}

/** Long enough to pick an account and consent, short enough that a leaked URL soon means nothing. */
const STATE_TTL_MS = 10 * 60_000;

/**
 * The `state` of an OAuth authorization-code flow: signed (HMAC-SHA256 with a
 * key derived from the JWT secret), bound to the user and the flow, and
 * short-lived, so a callback can only finish a connection the same user
 * started here minutes ago (no login CSRF, no account mix-up).
 */
export class OAuthStateSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('asistente oauth state v1').digest();
  }

  sign(state: OAuthState, now = Date.now()): string {
    const payload = Buffer.from(
      JSON.stringify({ u: state.userId, f: state.flow, e: now + STATE_TTL_MS, n: randomBytes(8).toString('base64url') }),
    ).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The state's user when `token` is genuine, unexpired and issued for `flow`; undefined otherwise. */
  verify(token: string, flow: string, now = Date.now()): OAuthState | undefined {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u?: unknown; f?: unknown; e?: unknown };
      if (typeof claims.u !== 'string' || claims.f !== flow || typeof claims.e !== 'number' || claims.e < now) return undefined;
      return { userId: claims.u, flow };
    } catch {
      return undefined;
    }
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
