// The mail grant port: what the domain needs from Gmail's and Outlook's OAuth (the servers a grant logs in
// to, and a refresh). adapters/oauth-provider.ts implements it against each provider's token endpoint.

export type OAuthProviderName = 'gmail' | 'outlook';

export interface ServerAddress {
  host: string;
  port: number;
  secure: boolean;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** ms since the epoch */
  expiresAt: number;
  /** The mailbox address, from the ID token (present on the code exchange). */
  email?: string;
}

/** The token endpoint refused the grant (revoked or expired refresh token): the owner must connect again. */
export class OAuthGrantError extends Error {
  constructor(reason: string) {
    super(`token endpoint refused the grant: ${reason}`);
    this.name = 'OAuthGrantError';
  }
}

export interface MailGrantProvider {
  readonly name: OAuthProviderName;
  /** The provider's IMAP and SMTP servers, where its grants log in. */
  readonly imap: ServerAddress;
  readonly smtp: ServerAddress;
  refresh(refreshToken: string): Promise<TokenSet>;
}
