import type { TeamsStatus } from '@asistente/contracts';
import {
  AppError,
  OAuthClient,
  securityActivityEvent,
  type Logger,
  type OAuthFlow,
  type Outbox,
  type SecretBox,
  type SecretContext,
  type SecurityClient,
  type Sql,
} from '@asistente/kit';
import { MICROSOFT_ACCESS_TOKEN_COLUMN, MICROSOFT_REFRESH_TOKEN_COLUMN } from './secret-columns.js';
import type { ConnectionRow, ConnectionsRepository } from './connections.repository.js';
import { graphFailure, reconnectRequired } from './graph-errors.js';
import type { AccessTokens, MicrosoftClients, MicrosoftGraph, TokenSet } from './microsoft-graph.js';
import { NOT_CONFIGURED_MESSAGE, notConfigured, type MicrosoftSettings } from './microsoft-settings.js';

/** Refresh this long before Microsoft's expiry, so a token never dies mid-request. */
const EXPIRY_MARGIN_MS = 60_000;

export const notConnected = () =>
  new AppError(409, 'MICROSOFT_NOT_CONNECTED', 'Tu cuenta de Microsoft no está conectada: conéctala en la pantalla de Teams.');

export const tokenContext = (userId: string, column: typeof MICROSOFT_ACCESS_TOKEN_COLUMN | typeof MICROSOFT_REFRESH_TOKEN_COLUMN): SecretContext => ({
  userId,
  table: column.table,
  column: column.column,
});

/** A connected user's Graph, and who they are in Microsoft 365. */
export interface UserGraph {
  graph: MicrosoftGraph;
  msUserId: string;
}

/**
 * What the callback reports to the screen in `?microsoft=`. `mismatch`: the callback came to a browser that
 * did not start the flow, or the state was already used.
 */
export type ConnectOutcome = 'connected' | 'denied' | 'invalid' | 'mismatch' | 'failed' | 'forbidden' | 'unreachable' | 'unconfigured';

/** Where the callback sends the browser: the Teams screen, with the outcome in the query; and the cookie that ends the flow. */
export interface CallbackOutcome {
  ok: boolean;
  location: string;
  clearCookie: string;
}

/**
 * The user's Microsoft 365 connection: the OAuth authorization-code flow (signed, user- and browser-bound,
 * single-use state; PKCE),
 * tokens sealed at rest, refreshed before expiry or after Graph refuses them, and a Graph client per call.
 */
export class ConnectionService {
  /** The kit's authorization-code flow around the identity platform's calls; Microsoft has no revocation: disconnecting erases. */
  private readonly client: OAuthClient<TokenSet> | undefined;
  /** One refresh in flight per user in this process: concurrent calls share it. */
  private readonly refreshing = new Map<string, Promise<TokenSet>>();

  constructor(
    private readonly settings: MicrosoftSettings | undefined,
    private readonly connections: ConnectionsRepository,
    private readonly box: SecretBox,
    private readonly flow: OAuthFlow,
    private readonly log: Logger,
    /** Connecting and disconnecting are lines of the owner's security log, written with the change. */
    private readonly security: { sql: Sql; outbox: Outbox },
    /** The identity flow and Graph (adapters), present when Microsoft is configured. */
    private readonly microsoft: MicrosoftClients | undefined,
  ) {
    this.client = microsoft ? new OAuthClient(flow, microsoft.identity) : undefined;
  }

  async status(userId: string): Promise<TeamsStatus> {
    if (!this.settings) return { connected: false, configured: false, message: NOT_CONFIGURED_MESSAGE };
    const row = await this.connections.find(userId);
    if (!row) return { connected: false, configured: true };
    return { connected: true, configured: true, account: { name: row.displayName, email: row.email } };
  }

  /** The consent URL, and the cookie that binds the flow to the browser asking for it. */
  authorizeUrl(userId: string): { url: string; cookie: string } {
    return this.requireClient().start(userId);
  }

  /**
   * Never throws: whatever happens, the browser goes back to the Teams screen with `?microsoft=<outcome>`,
   * a fixed word the screen turns into its own sentence (no text of ours or Microsoft's travels in the URL,
   * so a crafted link cannot put words in the app's mouth).
   */
  async completeCallback(
    query: { code?: string; state?: string; error?: string },
    cookieHeader: string | undefined,
    client: SecurityClient,
  ): Promise<CallbackOutcome> {
    const screen = this.settings?.screenUrl ?? '/teams';
    const back = (outcome: ConnectOutcome): CallbackOutcome => ({
      ok: outcome === 'connected',
      location: `${screen}?microsoft=${outcome}`,
      clearCookie: this.flow.clearCookie,
    });
    if (!this.client) return back('unconfigured');
    const state = await this.client.finish(query, cookieHeader);
    if (!state.ok && state.reason === 'denied') return back(state.error === 'access_denied' ? 'denied' : 'failed');
    if (!state.ok) return back(state.reason === 'invalid' ? 'invalid' : 'mismatch');
    try {
      const tokens = await state.redeem();
      const graph = this.graphWith(state.userId, { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
      const me = await graph.me().catch((error: unknown) => {
        throw graphFailure(error);
      });
      const email = me.mail ?? me.userPrincipalName ?? '';
      const connection = { msUserId: me.id ?? '', displayName: me.displayName ?? '', email, ...this.seal(state.userId, tokens), expiresAt: tokens.expiresAt, scopes: tokens.scopes };
      const detail = { provider: 'microsoft' as const, ...(email ? { account: email } : {}) };
      await this.security.sql.begin(async (tx) => {
        await this.connections.upsert(state.userId, connection, tx);
        await this.security.outbox.append(tx, [securityActivityEvent(state.userId, 'provider.connected', client, detail)]);
      });
      return back('connected');
    } catch (error) {
      this.log.warn({ err: error }, 'microsoft connection failed');
      const code = error instanceof AppError ? error.code : '';
      return back(code === 'MICROSOFT_FORBIDDEN' ? 'forbidden' : code === 'MICROSOFT_UNREACHABLE' ? 'unreachable' : 'failed');
    }
  }

  /** Only a connection actually removed is a line in the security log. */
  async disconnect(userId: string, client: SecurityClient): Promise<void> {
    await this.connections.delete(userId, (tx, email) =>
      this.security.outbox.append(tx, [securityActivityEvent(userId, 'provider.disconnected', client, { provider: 'microsoft', ...(email ? { account: email } : {}) })]),
    );
  }

  /**
   * Graph on behalf of a connected user; 503 when not configured, 409 when not connected. With `channelId`,
   * also the team the channel belongs to (undefined when the user never listed it), in the same query.
   */
  async graphFor(userId: string, channelId?: string): Promise<UserGraph & { teamId?: string | undefined }> {
    this.requireClient();
    const row = channelId === undefined ? await this.connections.find(userId) : await this.connections.findWithChannel(userId, channelId);
    if (!row) throw notConnected();
    return { graph: this.graphFromRow(row), msUserId: row.msUserId, teamId: row.teamId ?? undefined };
  }

  private graphFromRow(row: ConnectionRow): MicrosoftGraph {
    // The row read for this request holds the token; after a refresh, the fresh token replaces it.
    let access: { token: string; expiresAt: number } | undefined;
    const tokens: AccessTokens = {
      current: async () => {
        if (access && access.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return access.token;
        if (!access && row.expiresAt.getTime() - EXPIRY_MARGIN_MS > Date.now()) {
          access = { token: this.box.open(row.accessTokenEnc, tokenContext(row.userId, MICROSOFT_ACCESS_TOKEN_COLUMN)), expiresAt: row.expiresAt.getTime() };
          return access.token;
        }
        return tokens.renew();
      },
      renew: async () => {
        const renewed = await this.refresh(row.userId);
        access = { token: renewed.accessToken, expiresAt: renewed.expiresAt.getTime() };
        return access.token;
      },
    };
    return this.graphWithTokens(tokens);
  }

  /** Before the connection is stored (the callback's /me): tokens in memory. */
  private graphWith(userId: string, tokens: { accessToken: string; refreshToken: string | null }): MicrosoftGraph {
    let access = tokens.accessToken;
    return this.graphWithTokens({
      current: () => Promise.resolve(access),
      renew: async () => {
        if (!tokens.refreshToken) throw reconnectRequired();
        // Nothing is stored yet: the callback stores the connection once /me answered.
        access = (await this.requireClient().renew(tokens.refreshToken, async () => {})).accessToken;
        this.log.debug({ userId }, 'microsoft token renewed during connection');
        return access;
      },
    });
  }

  private graphWithTokens(tokens: AccessTokens): MicrosoftGraph {
    return this.microsoft!.graph(tokens);
  }

  private refresh(userId: string): Promise<TokenSet> {
    let pending = this.refreshing.get(userId);
    if (!pending) {
      pending = this.doRefresh(userId).finally(() => this.refreshing.delete(userId));
      this.refreshing.set(userId, pending);
    }
    return pending;
  }

  private async doRefresh(userId: string): Promise<TokenSet> {
    const row = await this.connections.find(userId);
    if (!row) throw notConnected();
    if (!row.refreshTokenEnc) throw reconnectRequired();
    const refreshToken = this.box.open(row.refreshTokenEnc, tokenContext(userId, MICROSOFT_REFRESH_TOKEN_COLUMN));
    return this.requireClient().renew(refreshToken, async (tokens) => {
      const sealed = this.seal(userId, tokens);
      await this.connections.updateTokens(userId, sealed.accessTokenEnc, sealed.refreshTokenEnc, tokens.expiresAt);
    });
  }

  private seal(userId: string, tokens: TokenSet): { accessTokenEnc: string; refreshTokenEnc: string | null } {
    return {
      accessTokenEnc: this.box.seal(tokens.accessToken, tokenContext(userId, MICROSOFT_ACCESS_TOKEN_COLUMN)),
      refreshTokenEnc: tokens.refreshToken ? this.box.seal(tokens.refreshToken, tokenContext(userId, MICROSOFT_REFRESH_TOKEN_COLUMN)) : null,
    };
  }

  private requireClient(): OAuthClient<TokenSet> {
    if (!this.client) throw notConfigured();
    return this.client;
  }
}
