import type { OAuthStrategy } from '@asistente/kit';
import { AppError, postTokenRequest, revokeAtEndpoint } from '@asistente/kit';
import type { EmailSettings } from '../settings.js';
import { OAuthGrantError, type MailGrantProvider, type OAuthProviderName, type ServerAddress, type TokenSet } from '../domain/mail-oauth.js';

interface ProviderSettings {
  label: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The server settings the administrator sets: named in the startup log, never to the owner. */
  variables: string;
  authUrl: string;
  tokenUrl: string;
  /** Where a grant is revoked (RFC 7009); Microsoft has no such endpoint for these tokens. */
  revokeUrl: string | undefined;
  scope: string;
  extraParams: Record<string, string>;
  imap: ServerAddress;
  smtp: ServerAddress;
}

const TOKEN_TIMEOUT_MS = 10_000;

/** `imaps://host:993` → TLS; `imap://host:143` → STARTTLS (plain on loopback). Same for smtp(s). */
export function parseServerUrl(url: string): ServerAddress {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'imaps:' || parsed.protocol === 'smtps:';
  const fallback = parsed.protocol.startsWith('imap') ? (secure ? 993 : 143) : secure ? 465 : 587;
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: parsed.port ? Number(parsed.port) : fallback, secure };
}

function settingsFor(provider: OAuthProviderName, config: EmailSettings): ProviderSettings {
  if (provider === 'gmail') {
    return {
      label: 'Gmail',
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      variables: 'GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET',
      authUrl: config.GOOGLE_AUTH_URL,
      tokenUrl: config.GOOGLE_TOKEN_URL,
      revokeUrl: config.GOOGLE_REVOKE_URL,
      scope: 'https://mail.google.com/ openid email',
      // offline + consent: Google returns a refresh token on every connection, not only the first.
      extraParams: { access_type: 'offline', prompt: 'consent' },
      imap: parseServerUrl(config.GMAIL_IMAP_URL),
      smtp: parseServerUrl(config.GMAIL_SMTP_URL),
    };
  }
  const base = `${config.MICROSOFT_LOGIN_URL.replace(/\/$/, '')}/${config.MICROSOFT_TENANT}/oauth2/v2.0`;
  return {
    label: 'Outlook',
    clientId: config.MICROSOFT_CLIENT_ID,
    clientSecret: config.MICROSOFT_CLIENT_SECRET,
    variables: 'MICROSOFT_CLIENT_ID y MICROSOFT_CLIENT_SECRET',
    authUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    revokeUrl: undefined,
    scope: 'https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send offline_access openid email',
    extraParams: { prompt: 'select_account' },
    imap: parseServerUrl(config.OUTLOOK_IMAP_URL),
    smtp: parseServerUrl(config.OUTLOOK_SMTP_URL),
  };
}

/**
 * Gmail's or Outlook's side of the kit's authorization-code flow (OAuthClient runs the sequence), spoken over
 * RFC 6749 with the kit's token-endpoint request, so a local token endpoint can stand in for either in tests
 * and proxies.
 */
export class OAuthProvider implements MailGrantProvider, OAuthStrategy<TokenSet> {
  private readonly settings: ProviderSettings;
  /**
   * Revokes a grant at the provider's revocation endpoint (Google's, the same request google-auth-library's
   * `revokeToken` makes); absent for Microsoft, whose tokens can only be forgotten.
   */
  readonly revoke: ((token: string) => Promise<void>) | undefined;

  constructor(
    readonly name: OAuthProviderName,
    config: EmailSettings,
    readonly redirectUri: string,
  ) {
    this.settings = settingsFor(name, config);
    const { revokeUrl } = this.settings;
    this.revoke = revokeUrl ? (token) => revokeAtEndpoint(revokeUrl, token, TOKEN_TIMEOUT_MS) : undefined;
  }

  get imap(): ServerAddress {
    return this.settings.imap;
  }

  get smtp(): ServerAddress {
    return this.settings.smtp;
  }

  /** null when configured; otherwise the sentence telling the administrator what to set. */
  notConfiguredMessage(): string | null {
    try {
      this.assertConfigured();
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** What the administrator must set for this provider, or null when it is configured (for the startup log). */
  missingSettings(): string | null {
    const { clientId, clientSecret, variables } = this.settings;
    return clientId && clientSecret ? null : variables;
  }

  /** 503 telling the owner to ask the administrator, when the client id or secret is missing. */
  assertConfigured(): { clientId: string; clientSecret: string } {
    const { clientId, clientSecret, label } = this.settings;
    if (!clientId || !clientSecret) {
      throw new AppError(
        503,
        'PROVIDER_NOT_CONFIGURED',
        `${label} no está configurado en este servidor. Pide al administrador que configure la conexión con ${label}.`,
      );
    }
    return { clientId, clientSecret };
  }

  /** `codeChallenge`: PKCE S256 (RFC 7636), which both Google and Microsoft check at the code exchange. */
  authorizationUrl(state: string, codeChallenge: string): string {
    const { clientId } = this.assertConfigured();
    const url = new URL(this.settings.authUrl);
    const params = {
      client_id: clientId,
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: this.settings.scope,
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      ...this.settings.extraParams,
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  }

  async exchange(code: string, codeVerifier: string): Promise<TokenSet> {
    const tokens = await this.tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: this.redirectUri, code_verifier: codeVerifier });
    if (!tokens.refreshToken) throw new Error('the token endpoint returned no refresh token');
    return tokens;
  }

  /** Google keeps the refresh token ('' here); Microsoft may rotate it: the kit's renewGrant keeps the old one when none came. */
  refresh(refreshToken: string): Promise<TokenSet> {
    return this.tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  private async tokenRequest(grant: Record<string, string>): Promise<TokenSet> {
    const { clientId, clientSecret } = this.assertConfigured();
    const { status, ok, body: json } = await postTokenRequest(this.settings.tokenUrl, { ...grant, client_id: clientId, client_secret: clientSecret }, TOKEN_TIMEOUT_MS);
    if (!ok || typeof json.access_token !== 'string') {
      const reason = typeof json.error === 'string' ? json.error : `HTTP ${status}`;
      if (status >= 400 && status < 500) throw new OAuthGrantError(reason);
      throw new Error(`token endpoint answered ${reason}`);
    }
    const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : Number(json.expires_in ?? 3600);
    return {
      accessToken: json.access_token,
      refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : '',
      expiresAt: Date.now() + (Number.isFinite(expiresIn) ? expiresIn : 3600) * 1000,
      ...emailClaim(json.id_token),
    };
  }
}

/**
 * The address from the ID token. It came straight from the token endpoint over the back channel (TLS in
 * production), which is what OpenID Connect requires for using its claims without checking the signature.
 */
function emailClaim(idToken: unknown): { email?: string } {
  if (typeof idToken !== 'string') return {};
  const payload = idToken.split('.')[1];
  if (!payload) return {};
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const email = [claims.email, claims.preferred_username, claims.upn].find((v): v is string => typeof v === 'string' && v.includes('@'));
    return email ? { email } : {};
  } catch {
    return {};
  }
}
