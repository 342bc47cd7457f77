import type { Logger, OAuthFlow, Outbox, SecretBox, SecretContext, SecurityClient, Sql } from '@asistente/kit';
import { OAuthClient, securityActivityEvent } from '@asistente/kit';
import { GOOGLE_ACCESS_TOKEN_COLUMN, GOOGLE_REFRESH_TOKEN_COLUMN } from './secret-columns.js';
import type { GoogleStatus } from '@asistente/contracts';
import type { MirrorFeed } from './calendars/mirror-feed.js';
import type { GoogleAuthorization, GoogleTokens } from './google-authorization.js';
import type { GoogleAccountsRepository, SealedTokens } from './google-accounts.repository.js';
import type { MirrorRepository } from './mirror.repository.js';
import { notConfigured, notConnected, ProviderError, reconnect, RECONNECT_MESSAGE } from './provider-errors.js';

/**
 * Where the callback sends the browser back: the screen, with the outcome for a message. `mismatch`: the
 * callback came to a browser that did not start the flow, or the state was already used.
 */
export type CallbackOutcome = 'connected' | 'denied' | 'invalid' | 'mismatch' | 'failed' | 'unconfigured';

/**
 * The user's Google connection: the consent URL, the callback that stores the sealed tokens, status,
 * disconnect, and the per-request Calendar client (which refreshes tokens and notices a revoked grant).
 */
export class GoogleConnectionService {
  /** The kit's authorization-code flow around Google's calls: state, PKCE, exchange, revocation. */
  private readonly client: OAuthClient<GoogleTokens> | undefined;

  constructor(
    private readonly oauth: GoogleAuthorization | undefined,
    private readonly accounts: GoogleAccountsRepository,
    private readonly mirror: MirrorRepository,
    private readonly box: SecretBox,
    private readonly flow: OAuthFlow,
    private readonly log: Logger,
    /** The connection and the disconnection are lines of the owner's security log, written with them. */
    private readonly sql: Sql,
    private readonly outbox: Outbox,
  ) {
    this.client = oauth ? new OAuthClient(flow, oauth) : undefined;
  }

  get configured(): boolean {
    return this.oauth !== undefined;
  }

  async status(userId: string): Promise<GoogleStatus> {
    const account = await this.accounts.find(userId);
    const revoked = account?.revokedAt != null;
    return {
      connected: account !== undefined && !revoked && this.configured,
      email: account?.email ?? null,
      configured: this.configured,
      needsReconnect: revoked,
      message: revoked ? RECONNECT_MESSAGE : null,
    };
  }

  /** The consent URL, and the cookie that binds the flow to the browser asking for it. */
  authorizationUrl(userId: string): { url: string; cookie: string } {
    if (!this.client) throw notConfigured();
    return this.client.start(userId);
  }

  /** The `Set-Cookie` value the callback answers with, whatever the outcome: the flow is over. */
  get clearCookie(): string {
    return this.flow.clearCookie;
  }

  /**
   * Finishes the consent: only a state this service signed for this flow minutes ago, presented by the
   * browser that started it, for the first time; anything else exchanges no code.
   */
  async complete(
    query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
    cookieHeader: string | undefined,
    client: SecurityClient,
  ): Promise<CallbackOutcome> {
    if (!this.oauth || !this.client) return 'unconfigured';
    const state = await this.client.finish(query, cookieHeader);
    if (!state.ok) return state.reason === 'denied' ? 'denied' : state.reason === 'invalid' ? 'invalid' : 'mismatch';
    try {
      const tokens = await state.redeem();
      const calendar = this.oauth.calendar(tokens, () => {});
      const calendars = await calendar.calendars();
      // The primary calendar's id is the account's address.
      const email = calendars.find((c) => c.primary)?.id ?? calendars[0]?.id ?? 'Google';
      const sealed = this.seal(state.userId, tokens);
      await this.sql.begin(async (tx) => {
        await this.accounts.connect(state.userId, email, sealed, tx);
        await this.outbox.append(tx, [securityActivityEvent(state.userId, 'provider.connected', client, { provider: 'google', account: email })]);
      });
      await this.mirror.replaceCalendars(state.userId, calendars);
      await this.accounts.markCalendarsSynced(state.userId);
      return 'connected';
    } catch (error) {
      this.log.warn({ err: error instanceof ProviderError ? { kind: error.kind, status: error.status } : error }, 'google connect failed');
      return 'failed';
    }
  }

  /** Revokes the grant at Google (best effort: the user wants us to forget it either way) and forgets it here. */
  async disconnect(userId: string, client: SecurityClient): Promise<void> {
    const account = await this.accounts.find(userId);
    if (!account) return;
    const token = this.open(userId, account.refreshTokenEnc, 'refresh') ?? this.open(userId, account.accessTokenEnc, 'access');
    if (token && this.client) {
      await this.client.revoke(token).catch((error: unknown) => this.log.info({ status: (error as { status?: number }).status }, 'google revoke refused'));
    }
    await this.accounts.delete(userId, (tx) =>
      this.outbox.append(tx, [securityActivityEvent(userId, 'provider.disconnected', client, { provider: 'google', account: account.email })]),
    );
  }

  /**
   * Revokes the user's grant at Google for the erasure of the account (the rows go with the erasure):
   * false when Google refused or could not be reached; true when it took it or there was nothing to revoke.
   */
  async revokeGrant(userId: string): Promise<boolean> {
    const account = await this.accounts.find(userId);
    if (!account) return true;
    const token = this.open(userId, account.refreshTokenEnc, 'refresh') ?? this.open(userId, account.accessTokenEnc, 'access');
    if (!token || !this.client) return true;
    try {
      await this.client.revoke(token);
      return true;
    } catch (error) {
      this.log.warn({ status: (error as { status?: number }).status }, 'google revoke refused during erasure');
      return false;
    }
  }

  /** What the mirror reads of a connected user's account. */
  async feed(userId: string): Promise<MirrorFeed> {
    if (!this.oauth) throw notConfigured();
    const { tokens, onRefresh } = await this.session(userId);
    return this.oauth.calendar(tokens, onRefresh);
  }

  /**
   * A connected user's tokens, for Google's adapter to build its client with; refreshed tokens are sealed and
   * stored as they come (`onRefresh`).
   */
  async session(userId: string): Promise<{ tokens: GoogleTokens; onRefresh: (tokens: GoogleTokens) => void }> {
    if (!this.oauth) throw notConfigured();
    const account = await this.accounts.find(userId);
    if (!account) throw notConnected();
    if (account.revokedAt) throw reconnect();
    const tokens: GoogleTokens = {
      accessToken: this.open(userId, account.accessTokenEnc, 'access'),
      refreshToken: this.open(userId, account.refreshTokenEnc, 'refresh'),
      expiresAt: account.expiresAt,
      scope: account.scope,
    };
    const onRefresh = (fresh: GoogleTokens) => {
      this.accounts
        .refreshed(userId, this.seal(userId, fresh))
        .catch((error: unknown) => this.log.error({ err: error }, 'could not store refreshed google tokens'));
    };
    return { tokens, onRefresh };
  }

  /** Runs a provider call; a revoked grant marks the account so status and screens say "connect again". */
  async guard<T>(userId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'revoked') {
        await this.accounts.markRevoked(userId);
        throw reconnect();
      }
      throw error;
    }
  }

  private seal(userId: string, tokens: GoogleTokens): SealedTokens {
    return {
      accessTokenEnc: tokens.accessToken ? this.box.seal(tokens.accessToken, context(userId, 'access')) : null,
      refreshTokenEnc: tokens.refreshToken ? this.box.seal(tokens.refreshToken, context(userId, 'refresh')) : null,
      expiresAt: tokens.expiresAt,
      scope: tokens.scope,
    };
  }

  private open(userId: string, sealed: string | null, which: 'access' | 'refresh'): string | null {
    return sealed ? this.box.open(sealed, context(userId, which)) : null;
  }
}

/** The AAD of a stored token: the registry's table and column, so rotate-keys opens it with the same context. */
export function context(userId: string, which: 'access' | 'refresh'): SecretContext {
  const column = which === 'access' ? GOOGLE_ACCESS_TOKEN_COLUMN : GOOGLE_REFRESH_TOKEN_COLUMN;
  return { userId, table: column.table, column: column.column };
}
