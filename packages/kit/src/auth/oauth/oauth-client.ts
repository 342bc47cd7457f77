import type { OAuthFlow, OAuthRefusal } from '../oauth-flow.js';
import type { OAuthStrategy, OAuthTokens } from './oauth-strategy.js';

/** The callback's query as every provider sends it. */
export interface OAuthCallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

/**
 * How a callback ended before any code was redeemed: a refused state (see OAuthFlow), or `denied` when the
 * provider sent no code (`error` is the provider's word, e.g. `access_denied`). When accepted, `redeem`
 * exchanges the code with the verifier; the caller stores what it answers.
 */
export type OAuthCallback<T> =
  | { ok: true; userId: string; redeem: () => Promise<T> }
  | { ok: false; reason: OAuthRefusal | 'denied'; error?: string | undefined };

/**
 * Renews a grant and hands the result to storage: when the provider rotates the refresh token the new one is
 * what `store` receives; when it sends none, the one used is kept. `store` seals and writes (the service's
 * table and key-ring context); the tokens come back for the call that needed them.
 */
export async function renewGrant<T extends OAuthTokens>(
  refresh: (refreshToken: string) => Promise<T>,
  refreshToken: string,
  store: (tokens: T) => Promise<void>,
): Promise<T> {
  const tokens = withRotation(await refresh(refreshToken), refreshToken as T['refreshToken']);
  await store(tokens);
  return tokens;
}

/** The rotation rule alone, for SDKs that refresh by themselves (google-auth-library's `tokens` event). */
export function withRotation<T extends OAuthTokens>(fresh: T, previous: T['refreshToken']): T {
  return fresh.refreshToken ? fresh : { ...fresh, refreshToken: previous };
}

/**
 * Revokes a grant where the provider offers it: false when it has no revocation (Microsoft: the caller only
 * erases); throws when the provider refused or could not be reached.
 */
export async function revokeGrant(strategy: Pick<OAuthStrategy<OAuthTokens>, 'revoke'>, token: string): Promise<boolean> {
  if (!strategy.revoke) return false;
  await strategy.revoke(token);
  return true;
}

/**
 * One provider's authorization-code flow, written once for every service: the consent URL with PKCE (S256)
 * and the browser-bound, single-use state; the callback that spends the state before any code is redeemed;
 * refresh with rotation handed to sealed storage; revocation where the provider offers it.
 */
export class OAuthClient<T extends OAuthTokens> {
  constructor(
    private readonly flow: OAuthFlow,
    private readonly strategy: OAuthStrategy<T>,
  ) {}

  /** The consent URL, and the `Set-Cookie` value binding the flow to the browser asking for it. */
  start(userId: string): { url: string; cookie: string } {
    const start = this.flow.start(userId);
    return { url: this.strategy.authorizationUrl(start.state, start.codeChallenge), cookie: start.cookie };
  }

  /** The `Set-Cookie` value the callback answers with, whatever the outcome: the flow is over. */
  get clearCookie(): string {
    return this.flow.clearCookie;
  }

  /**
   * The callback: the state must be one this service signed for this flow, presented by the browser that
   * started it, for the first time (spent across replicas) before the provider's answer is even read.
   */
  async finish(query: OAuthCallbackQuery, cookieHeader: string | undefined): Promise<OAuthCallback<T>> {
    const state = await this.flow.finish(query.state, cookieHeader);
    if (!state.ok) return state;
    const { code } = query;
    if (query.error || !code) return { ok: false, reason: 'denied', error: query.error };
    return { ok: true, userId: state.userId, redeem: () => this.strategy.exchange(code, state.codeVerifier) };
  }

  /** A fresh access token through the stored refresh token; the rotated one, if any, goes to `store`. */
  renew(refreshToken: string, store: (tokens: T) => Promise<void>): Promise<T> {
    const { refresh } = this.strategy;
    if (!refresh) throw new Error('this provider renews its tokens through its SDK client');
    return renewGrant((token) => refresh.call(this.strategy, token), refreshToken, store);
  }

  /** See revokeGrant: false when the provider has no revocation, throws when it refused. */
  revoke(token: string): Promise<boolean> {
    return revokeGrant(this.strategy, token);
  }
}
