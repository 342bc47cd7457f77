/** What the kit needs to know of a token set: the refresh token it may carry (null or '' when none came). */
export interface OAuthTokens {
  refreshToken: string | null;
}

/**
 * One provider's side of the authorization-code flow, written in the service's adapter: its endpoints,
 * scopes and extra consent parameters, and the SDK or HTTP calls that speak to it. The order of things
 * (state, PKCE, exchange, storage, refresh, revocation) is the kit's (oauth-client.ts).
 */
export interface OAuthStrategy<T extends OAuthTokens> {
  /** The consent page for this signed state and PKCE challenge (always S256). */
  authorizationUrl(state: string, codeChallenge: string): string;
  /** Redeems the callback's code with the verifier of the challenge. */
  exchange(code: string, codeVerifier: string): Promise<T>;
  /** A fresh access token; the answer may carry a rotated refresh token, or none (keep the old one). */
  refresh?(refreshToken: string): Promise<T>;
  /** Revokes the grant at the provider. Absent when the provider offers no revocation (Microsoft): erase only. */
  revoke?: ((token: string) => Promise<void>) | undefined;
}
