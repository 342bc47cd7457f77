import { postTokenRequest, type TokenEndpointAnswer } from '@asistente/kit';
import { reconnectRequired, unreachable } from '../domain/graph-errors.js';
import type { MicrosoftIdentity, TokenSet } from '../domain/microsoft-graph.js';
import type { MicrosoftSettings } from '../domain/microsoft-settings.js';

/**
 * Delegated permissions the features need: profile, Outlook calendars, Teams online meetings, teams and
 * channels (read), channel messages (read and send), members (for the counts), and offline_access for a
 * refresh token.
 */
export const MICROSOFT_SCOPES = [
  'offline_access',
  'openid',
  'profile',
  'User.Read',
  'Calendars.ReadWrite',
  'OnlineMeetings.ReadWrite',
  'Team.ReadBasic.All',
  'Channel.ReadBasic.All',
  'TeamMember.Read.All',
  'ChannelMember.Read.All',
  'ChannelMessage.Read.All',
  'ChannelMessage.Send',
];

const TIMEOUT_MS = 15_000;

/**
 * The Microsoft identity platform's authorization-code flow (v2.0 endpoints) with plain fetch: MSAL refuses
 * configurable http authorities and calls Microsoft for instance discovery, and nothing here needs its cache.
 */
export class MicrosoftIdentityFlow implements MicrosoftIdentity {
  constructor(private readonly settings: MicrosoftSettings) {}

  /** `codeChallenge`: PKCE S256, which the identity platform checks when the code is redeemed. */
  authorizationUrl(state: string, codeChallenge: string): string {
    const { loginUrl, tenant, clientId, redirectUri } = this.settings;
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      response_mode: 'query',
      scope: MICROSOFT_SCOPES.join(' '),
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      prompt: 'select_account',
    });
    return `${loginUrl}/${encodeURIComponent(tenant)}/oauth2/v2.0/authorize?${query.toString()}`;
  }

  exchange(code: string, codeVerifier: string): Promise<TokenSet> {
    return this.token({ grant_type: 'authorization_code', code, redirect_uri: this.settings.redirectUri, code_verifier: codeVerifier });
  }

  refresh(refreshToken: string): Promise<TokenSet> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  private async token(grant: Record<string, string>): Promise<TokenSet> {
    const { loginUrl, tenant, clientId, clientSecret } = this.settings;
    const params = { client_id: clientId, client_secret: clientSecret, scope: MICROSOFT_SCOPES.join(' '), ...grant };
    let answer: TokenEndpointAnswer;
    try {
      answer = await postTokenRequest(`${loginUrl}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`, params, TIMEOUT_MS);
    } catch {
      throw unreachable();
    }
    const { status, body: json } = answer;
    if (!answer.ok) {
      // invalid_grant: the code was used or expired, or the refresh token was revoked; the user must sign in again.
      if (status === 400 || status === 401) throw reconnectRequired();
      throw unreachable();
    }
    const accessToken = json.access_token;
    const expiresIn = Number(json.expires_in);
    if (typeof accessToken !== 'string' || !accessToken) throw unreachable();
    return {
      accessToken,
      refreshToken: typeof json.refresh_token === 'string' && json.refresh_token ? json.refresh_token : null,
      expiresAt: new Date(Date.now() + (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600) * 1000),
      scopes: typeof json.scope === 'string' ? json.scope : '',
    };
  }
}
