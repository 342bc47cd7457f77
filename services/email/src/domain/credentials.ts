import { renewGrant, type SecretBox, type SecretContext } from '@asistente/kit';
import { EMAIL_CREDENTIALS_COLUMN } from './secret-columns.js';
import type { MailGrantProvider, OAuthProviderName, TokenSet } from './mail-oauth.js';
import { imapSettings, smtpSettings, type AccountRow, type MailAccount, type MailSecret } from './account.js';
import type { AccountsRepository } from './accounts.repository.js';
import type { MailServers } from './mail-servers.js';

/** The AAD of an account's credentials: the registry's table and column, so rotate-keys opens them too. */
export function credentialsContext(userId: string): SecretContext {
  return { userId, table: EMAIL_CREDENTIALS_COLUMN.table, column: EMAIL_CREDENTIALS_COLUMN.column };
}

/** Refresh an access token this long before it expires, so a sync never starts with one about to lapse. */
const REFRESH_MARGIN_MS = 2 * 60_000;

/**
 * Opens an account's sealed credentials for one use, refreshing an OAuth access token when it is about to
 * expire (and sealing the new one), with its servers' hosts resolved and checked for this use: a saved
 * host that now resolves to a refused address fails here, before any connection. Nothing opened here is
 * kept or logged.
 */
export class Credentials {
  constructor(
    private readonly box: SecretBox,
    private readonly accounts: AccountsRepository,
    private readonly oauth: Record<OAuthProviderName, MailGrantProvider>,
    private readonly servers: MailServers,
  ) {}

  seal(userId: string, secret: MailSecret): string {
    return this.box.seal(JSON.stringify(secret), credentialsContext(userId));
  }

  /** The stored secret alone, with no refresh and no server check (the erasure revokes what it finds). */
  secretOf(row: AccountRow): MailSecret {
    return JSON.parse(this.box.open(row.credentialsEnc, credentialsContext(row.userId))) as MailSecret;
  }

  async open(row: AccountRow): Promise<MailAccount> {
    const { imap, smtp } = await this.servers.check(imapSettings(row), smtpSettings(row));
    let secret = JSON.parse(this.box.open(row.credentialsEnc, credentialsContext(row.userId))) as MailSecret;
    if (secret.kind === 'oauth' && secret.expiresAt - REFRESH_MARGIN_MS < Date.now() && row.provider !== 'imap') {
      const grant = this.oauth[row.provider];
      // The kit's renewal: a rotated refresh token is the one sealed; none sent keeps the one used.
      const tokens = await renewGrant((token) => grant.refresh(token), secret.refreshToken, async (fresh) => {
        await this.accounts.updateCredentials(row.id, this.seal(row.userId, oauthSecret(fresh)));
      });
      secret = oauthSecret(tokens);
    }
    return {
      id: row.id,
      userId: row.userId,
      provider: row.provider,
      email: row.email,
      imap,
      smtp,
      secret,
    };
  }
}

const oauthSecret = (tokens: TokenSet): MailSecret => ({ kind: 'oauth', accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt });
