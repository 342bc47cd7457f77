import type { OAuthStrategy } from '@asistente/kit';
import type { MirrorFeed } from './calendars/mirror-feed.js';

// The Google consent and token calls the connection service needs (a port: adapters/calendars/google/oauth.ts
// implements it with google-auth-library). The flow around them (state, PKCE, storage) is the kit's
// OAuthClient; Google's access tokens are renewed by the SDK's own client (see `calendar`).

export interface GoogleTokens {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
}

export interface GoogleAuthorization extends OAuthStrategy<GoogleTokens> {
  revoke(token: string): Promise<void>;
  /** What the mirror reads of one account; `onRefresh` receives the new tokens each time the client refreshes them. */
  calendar(tokens: GoogleTokens, onRefresh: (tokens: GoogleTokens) => void): MirrorFeed;
}
