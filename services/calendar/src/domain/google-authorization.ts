import type { CalendarProvider } from './calendar-provider.js';

// The Google consent and token calls the connection service needs (a port: adapters/google-oauth.ts
// implements it with google-auth-library).

export interface GoogleTokens {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
}

export interface GoogleAuthorization {
  authorizationUrl(state: string, codeChallenge: string): string;
  exchange(code: string, codeVerifier: string): Promise<GoogleTokens>;
  revoke(token: string): Promise<void>;
  /** The Calendar API for one account; `onRefresh` receives the new tokens each time the client refreshes them. */
  calendar(tokens: GoogleTokens, onRefresh: (tokens: GoogleTokens) => void): CalendarProvider;
}
