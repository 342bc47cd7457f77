import { createRequire } from 'node:module';
import { withRotation } from '@asistente/kit';
import type { Credentials, OAuth2Client } from 'google-auth-library';
import type { GoogleAuthorization, GoogleTokens } from '../../../domain/google-authorization.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import { GoogleCalendar } from './api.js';
import { toProviderError } from './errors.js';

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  /** `${PUBLIC_URL}/api/google/callback`: registered in Google's console. */
  redirectUri: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** The API root (`https://www.googleapis.com/`). */
  apiUrl: string;
  /** Each outside call gives up after this long. */
  timeoutMs?: number;
  backoff?: BackoffOptions;
  /** Told how each HTTP call to Google ended (metrics): its status, or the error it failed with. */
  onCall?: (result: number | unknown) => void;
}

/** Calendar read/write, plus the account's address for the status line. */
export const GOOGLE_SCOPES = ['https://www.googleapis.com/auth/calendar', 'openid', 'email'];
const DEFAULT_TIMEOUT_MS = 15_000;

// Google's SDK (~9 MB resident) is required by the first Google call, not when the service loads: an install
// that never connects a Google calendar never needs it. It is CommonJS, as the static import loaded it, so
// it is required synchronously and the port keeps its synchronous calls.
const requireSdk = createRequire(import.meta.url);
const authLibrary = () => requireSdk('google-auth-library') as typeof import('google-auth-library');
const calendarApi = () => requireSdk('@googleapis/calendar') as typeof import('@googleapis/calendar');

function toTokens(credentials: Credentials): GoogleTokens {
  return {
    accessToken: credentials.access_token ?? null,
    refreshToken: credentials.refresh_token ?? null,
    expiresAt: credentials.expiry_date ? new Date(credentials.expiry_date) : null,
    scope: credentials.scope ?? null,
  };
}

/** Google's OAuth 2 authorization-code flow (offline access) and the per-account API clients. */
export class GoogleOAuth implements GoogleAuthorization {
  private readonly timeoutMs: number;
  private readonly backoff: BackoffOptions;

  constructor(private readonly settings: GoogleSettings) {
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.backoff = settings.backoff ?? DEFAULT_BACKOFF;
  }

  private oauthClient(): OAuth2Client {
    const { OAuth2Client } = authLibrary();
    const client = new OAuth2Client({
      clientId: this.settings.clientId,
      clientSecret: this.settings.clientSecret,
      redirectUri: this.settings.redirectUri,
      endpoints: {
        oauth2AuthBaseUrl: this.settings.authUrl,
        oauth2TokenUrl: this.settings.tokenUrl,
        oauth2RevokeUrl: this.settings.revokeUrl,
      },
      // A 401 refreshes the access token once and repeats the call (revoked grants then fail the refresh).
      forceRefreshOnFailure: true,
      transporterOptions: { timeout: this.timeoutMs, retry: false },
    });
    const { onCall } = this.settings;
    // Every call (API and token refresh alike) goes through this client's transporter.
    if (onCall) {
      client.transporter.interceptors.response.add({
        resolved: async (response) => {
          onCall(response.status);
          return response;
        },
        rejected: (error) => {
          onCall(error);
          throw error;
        },
      });
    }
    return client;
  }

  /** Where the browser goes to consent; `prompt=consent` so Google always hands back a refresh token. */
  authorizationUrl(state: string, codeChallenge: string): string {
    return this.oauthClient().generateAuthUrl({
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: true,
      scope: GOOGLE_SCOPES,
      state,
      code_challenge: codeChallenge,
      code_challenge_method: authLibrary().CodeChallengeMethod.S256,
    });
  }

  async exchange(code: string, codeVerifier: string): Promise<GoogleTokens> {
    try {
      const { tokens } = await this.oauthClient().getToken({ code, codeVerifier });
      return toTokens(tokens);
    } catch (error) {
      throw toProviderError(error, this.settings.tokenUrl);
    }
  }

  /** Best effort: Google answers 400 for a token it already forgot, which is the state we want. */
  async revoke(token: string): Promise<void> {
    await this.oauthClient().revokeToken(token);
  }

  /** The Calendar API for one account; `onRefresh` receives the new tokens each time the client refreshes them. */
  calendar(tokens: GoogleTokens, onRefresh: (tokens: GoogleTokens) => void): GoogleCalendar {
    const auth = this.oauthClient();
    auth.setCredentials({
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
      expiry_date: tokens.expiresAt?.getTime() ?? null,
    });
    // The SDK refreshes by itself; the kit's rotation rule keeps the stored refresh token when Google sends none.
    auth.on('tokens', (fresh) => onRefresh(withRotation(toTokens(fresh), tokens.refreshToken)));
    const api = calendarApi().calendar({
      version: 'v3',
      rootUrl: this.settings.apiUrl.endsWith('/') ? this.settings.apiUrl : `${this.settings.apiUrl}/`,
      auth,
      timeout: this.timeoutMs,
      retry: false,
    });
    return new GoogleCalendar(api, this.settings.tokenUrl, this.backoff);
  }
}
