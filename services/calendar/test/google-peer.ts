import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A protocol-faithful stand-in for Google, for the real `google-auth-library` and `@googleapis/calendar`
 * clients: the OAuth 2 endpoints (authorization with immediate consent, token with code and refresh grants,
 * revoke) and the Calendar v3 subset the service uses (calendarList, events list with pageToken, syncToken
 * and 410, insert with conference data, patch, delete, events.watch and channels.stop), with Google's error bodies. Tests steer it: expire
 * tokens, revoke grants, invalidate sync tokens, edit events "in Google", fail the next calls with 429/403.
 */

export interface PeerCalendar {
  id: string;
  summary: string;
  backgroundColor?: string;
  primary?: boolean;
  accessRole?: string;
}

type GEvent = Record<string, unknown> & { id: string; status?: string };

interface StoredEvent {
  event: GEvent;
  seq: number;
  deleted: boolean;
}

/** A push channel opened with events.watch (Google posts to `address` when the calendar changes). */
export interface PeerChannel {
  id: string;
  resourceId: string;
  email: string;
  calendarId: string;
  address: string;
  token: string | undefined;
  expiration: number;
  stopped: boolean;
  messages: number;
}

interface Account {
  email: string;
  calendars: PeerCalendar[];
  events: Map<string, Map<string, StoredEvent>>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export const CLIENT_ID = 'cliente-prueba.apps.googleusercontent.com';
export const CLIENT_SECRET = 'secreto-de-prueba';
const ACCESS_TTL_S = 3600;

function googleError(res: ServerResponse, code: number, message: string, reason: string, status: string): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code, message, errors: [{ domain: 'global', reason, message }], status } }));
}

function json(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** RFC 7636 S256, as Google checks it: a code issued with a challenge needs the matching verifier, one without needs none. */
export function pkceHolds(challenge: string | undefined, verifier: string | undefined): boolean {
  if (challenge === undefined) return verifier === undefined;
  return verifier !== undefined && createHash('sha256').update(verifier).digest('base64url') === challenge;
}

export class GooglePeer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;
  private seq = 1;
  private readonly accounts = new Map<string, Account>();
  /** Issued codes, with the PKCE challenge the authorization request carried (S256), if any. */
  private readonly codes = new Map<string, { email: string; redirectUri: string; challenge: string | undefined }>();
  private readonly accessTokens = new Map<string, { email: string; expiresAt: number; refresh: string }>();
  private readonly refreshTokens = new Map<string, { email: string; revoked: boolean }>();
  private readonly invalidSyncTokens = new Set<string>();
  private failures: { status: number; reason: string }[] = [];
  /** While set, events.watch answers only once it settles (a channel opening caught in flight). */
  private watchGate: Promise<void> | undefined;
  readonly channels: PeerChannel[] = [];
  /** Who consents at the authorization endpoint next (the account must exist). */
  consentAs = '';
  /** When set, the authorization endpoint answers error=access_denied. */
  denyConsent = false;
  /** When set, every Calendar API request has its connection dropped unanswered (Google unreachable). */
  hangUp = false;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The service's configuration pointing at this peer. */
  config() {
    return {
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      GOOGLE_AUTH_URL: `${this.url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${this.url}/token`,
      GOOGLE_REVOKE_URL: `${this.url}/revoke`,
      GOOGLE_API_URL: `${this.url}/`,
    };
  }

  addAccount(email: string, calendars: PeerCalendar[] = []): void {
    const all = [{ id: email, summary: email, backgroundColor: '#039be5', primary: true, accessRole: 'owner' }, ...calendars];
    this.accounts.set(email, { email, calendars: all, events: new Map(all.map((c) => [c.id, new Map()])) });
    this.consentAs = email;
  }

  /** An event created "in Google" (by another app or the user on their phone). */
  putEvent(email: string, calendarId: string, event: GEvent): void {
    const calendar = this.account(email).events.get(calendarId)!;
    const now = new Date().toISOString();
    const previous = calendar.get(event.id);
    calendar.set(event.id, {
      event: { kind: 'calendar#event', status: 'confirmed', created: now, ...previous?.event, ...event, updated: now },
      seq: this.seq++,
      deleted: false,
    });
  }

  removeEvent(email: string, calendarId: string, id: string): void {
    const stored = this.account(email).events.get(calendarId)!.get(id);
    if (stored) Object.assign(stored, { deleted: true, seq: this.seq++ });
  }

  event(email: string, calendarId: string, id: string): GEvent | undefined {
    const stored = this.account(email).events.get(calendarId)?.get(id);
    return stored && !stored.deleted ? stored.event : undefined;
  }

  liveEvents(email: string, calendarId: string): GEvent[] {
    return [...(this.account(email).events.get(calendarId)?.values() ?? [])].filter((s) => !s.deleted).map((s) => s.event);
  }

  /** Every access token stops working (as after an hour); refresh tokens still do. */
  expireAccessTokens(): void {
    for (const token of this.accessTokens.values()) token.expiresAt = 0;
  }

  /** The user removed the app's access in their Google account. */
  revokeGrant(email: string): void {
    for (const token of this.refreshTokens.values()) if (token.email === email) token.revoked = true;
    for (const [access, token] of this.accessTokens) if (token.email === email) this.accessTokens.delete(access);
  }

  invalidateSyncTokens(): void {
    for (let i = 0; i < this.seq; i += 1) this.invalidSyncTokens.add(`sync-${i}`);
  }

  /** The next API calls answer these statuses (429 → rateLimitExceeded, 403 → rateLimitExceeded). */
  failNext(...statuses: number[]): void {
    this.failures.push(...statuses.map((status) => ({ status, reason: 'rateLimitExceeded' })));
  }

  /** Holds every events.watch answer until the returned release is called. */
  holdWatches(): () => void {
    let release!: () => void;
    this.watchGate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.watchGate = undefined;
      release();
    };
  }

  /** Every channel ever opened on a calendar, stopped or not. */
  channelsOf(email: string, calendarId = email): PeerChannel[] {
    return this.channels.filter((c) => c.email === email && c.calendarId === calendarId);
  }

  /** The channels still open for a calendar (not stopped, not expired). */
  openChannels(email: string, calendarId = email): PeerChannel[] {
    return this.channels.filter((c) => c.email === email && c.calendarId === calendarId && !c.stopped && c.expiration > Date.now());
  }

  /** The headers of the notification Google would post to the channel's address (state 'exists': something changed). */
  notification(channel: PeerChannel, state: 'sync' | 'exists' | 'not_exists' = 'exists'): Record<string, string> {
    channel.messages += 1;
    return {
      'x-goog-channel-id': channel.id,
      ...(channel.token !== undefined ? { 'x-goog-channel-token': channel.token } : {}),
      'x-goog-channel-expiration': new Date(channel.expiration).toUTCString(),
      'x-goog-resource-id': channel.resourceId,
      'x-goog-resource-uri': `${this.url}/calendar/v3/calendars/${encodeURIComponent(channel.calendarId)}/events?alt=json`,
      'x-goog-resource-state': state,
      'x-goog-message-number': String(channel.messages),
    };
  }

  apiRequests(pathPart: string, method?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path.includes(pathPart) && (!method || r.method === method));
  }

  private account(email: string): Account {
    const account = this.accounts.get(email);
    if (!account) throw new Error(`no account ${email} in the Google peer`);
    return account;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const raw = await readBody(req);
    const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
    const body: unknown = raw ? (form ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw)) : undefined;
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({ method: req.method ?? 'GET', path: decodeURIComponent(url.pathname), query, body });

    if (url.pathname === '/o/oauth2/v2/auth') return this.authorize(query, res);
    if (url.pathname === '/token' && req.method === 'POST') return this.token(body as Record<string, string>, req, res);
    if (url.pathname === '/revoke') return this.revoke(query.token ?? (body as Record<string, string> | undefined)?.token, res);
    if (url.pathname.startsWith('/calendar/v3/')) {
      if (this.hangUp) return void req.socket.destroy();
      return this.api(req, url, query, body as GEvent | undefined, res);
    }
    json(res, 404, { error: 'not_found' });
  }

  private authorize(query: Record<string, string>, res: ServerResponse): void {
    if (query.client_id !== CLIENT_ID || query.response_type !== 'code' || !query.redirect_uri) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Error 400: invalid_request');
      return;
    }
    if (query.code_challenge && query.code_challenge_method !== 'S256') {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Error 400: invalid_request (code_challenge_method)');
      return;
    }
    const back = new URL(query.redirect_uri);
    if (query.state) back.searchParams.set('state', query.state);
    if (this.denyConsent) back.searchParams.set('error', 'access_denied');
    else {
      const code = `4/${randomBytes(12).toString('base64url')}`;
      this.codes.set(code, { email: this.consentAs, redirectUri: query.redirect_uri, challenge: query.code_challenge });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', query.scope ?? '');
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private issue(email: string, refresh: string): { access_token: string; expires_in: number; token_type: string; scope: string } {
    const access = `ya29.${randomBytes(16).toString('base64url')}`;
    this.accessTokens.set(access, { email, expiresAt: Date.now() + ACCESS_TTL_S * 1000, refresh });
    return { access_token: access, expires_in: ACCESS_TTL_S, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/calendar openid email' };
  }

  private token(body: Record<string, string>, req: IncomingMessage, res: ServerResponse): void {
    // Client credentials in the body (client_secret_post) or in Basic auth.
    const basic = req.headers.authorization?.startsWith('Basic ')
      ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString('utf8').split(':').map(decodeURIComponent)
      : [];
    const clientId = body.client_id ?? basic[0];
    const secret = body.client_secret ?? basic[1];
    if (clientId !== CLIENT_ID || secret !== CLIENT_SECRET) return json(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    if (body.grant_type === 'authorization_code') {
      const grant = this.codes.get(body.code ?? '');
      this.codes.delete(body.code ?? '');
      if (!grant || grant.redirectUri !== body.redirect_uri) return json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      if (!pkceHolds(grant.challenge, body.code_verifier)) return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid code verifier.' });
      const refresh = `1//${randomBytes(16).toString('base64url')}`;
      this.refreshTokens.set(refresh, { email: grant.email, revoked: false });
      return json(res, 200, { ...this.issue(grant.email, refresh), refresh_token: refresh });
    }
    if (body.grant_type === 'refresh_token') {
      const grant = this.refreshTokens.get(body.refresh_token ?? '');
      if (!grant || grant.revoked) return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return json(res, 200, this.issue(grant.email, body.refresh_token!));
    }
    json(res, 400, { error: 'unsupported_grant_type' });
  }

  private revoke(token: string | undefined, res: ServerResponse): void {
    const refresh = token ? this.refreshTokens.get(token) : undefined;
    const access = token ? this.accessTokens.get(token) : undefined;
    if (!refresh && !access) return json(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
    const refreshToken = refresh ? token! : access!.refresh;
    const grant = this.refreshTokens.get(refreshToken);
    if (grant) grant.revoked = true;
    for (const [key, value] of this.accessTokens) if (value.refresh === refreshToken) this.accessTokens.delete(key);
    json(res, 200, {});
  }

  private api(req: IncomingMessage, url: URL, query: Record<string, string>, body: GEvent | undefined, res: ServerResponse): void {
    const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    const token = this.accessTokens.get(bearer);
    if (!token || token.expiresAt <= Date.now()) {
      return googleError(res, 401, 'Request had invalid authentication credentials.', 'authError', 'UNAUTHENTICATED');
    }
    const failure = this.failures.shift();
    if (failure) {
      const message = failure.status === 429 ? 'Rate Limit Exceeded' : 'Rate Limit Exceeded';
      return googleError(res, failure.status, message, failure.reason, failure.status === 429 ? 'RESOURCE_EXHAUSTED' : 'PERMISSION_DENIED');
    }
    const account = this.account(token.email);
    const path = url.pathname.slice('/calendar/v3/'.length).split('/').map(decodeURIComponent);
    const method = req.method ?? 'GET';

    if (path[0] === 'users' && path[1] === 'me' && path[2] === 'calendarList' && method === 'GET') {
      return json(res, 200, {
        kind: 'calendar#calendarList',
        items: account.calendars.map((c) => ({ kind: 'calendar#calendarListEntry', accessRole: 'owner', ...c })),
      });
    }
    if (path[0] === 'channels' && path[1] === 'stop' && method === 'POST') return this.stopChannel(body as Record<string, unknown> | undefined, res);
    if (path[0] === 'calendars' && path[2] === 'events' && path[3] === 'watch' && method === 'POST') {
      const watch = () => this.watch(account, path[1]!, body as Record<string, unknown> | undefined, res);
      if (this.watchGate) return void this.watchGate.then(watch);
      return watch();
    }
    if (path[0] !== 'calendars' || path[2] !== 'events') return googleError(res, 404, 'Not Found', 'notFound', 'NOT_FOUND');
    const calendarId = path[1]!;
    const events = account.events.get(calendarId);
    if (!events) return googleError(res, 404, 'Not Found', 'notFound', 'NOT_FOUND');
    const eventId = path[3];

    if (!eventId && method === 'GET') return this.list(events, query, res);
    if (!eventId && method === 'POST') {
      if (!body?.start || !body.end) return googleError(res, 400, 'Missing time.', 'required', 'INVALID_ARGUMENT');
      const id = randomBytes(10).toString('hex');
      const event: GEvent = { ...body, id, htmlLink: `https://www.google.com/calendar/event?eid=${id}` };
      delete event.conferenceData;
      const createRequest = (body.conferenceData as { createRequest?: { requestId?: string } } | undefined)?.createRequest;
      if (createRequest && query.conferenceDataVersion === '1') {
        const code = `${randomBytes(2).toString('hex').slice(0, 3)}-${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex').slice(0, 3)}`;
        const uri = `https://meet.google.com/${code}`;
        event.hangoutLink = uri;
        event.conferenceData = {
          createRequest: { ...createRequest, status: { statusCode: 'success' } },
          entryPoints: [{ entryPointType: 'video', uri, label: uri.replace('https://', '') }],
          conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet' },
          conferenceId: code,
        };
      }
      this.putEvent(account.email, calendarId, event);
      return json(res, 200, this.event(account.email, calendarId, id));
    }
    const stored = eventId ? events.get(eventId) : undefined;
    if (!stored) return googleError(res, 404, 'Not Found', 'notFound', 'NOT_FOUND');
    if (stored.deleted) return googleError(res, 410, 'Resource has been deleted', 'deleted', 'GONE');
    if (method === 'PATCH') {
      this.putEvent(account.email, calendarId, { ...stored.event, ...body, id: stored.event.id });
      return json(res, 200, this.event(account.email, calendarId, stored.event.id));
    }
    if (method === 'DELETE') {
      this.removeEvent(account.email, calendarId, stored.event.id);
      res.writeHead(204);
      res.end();
      return;
    }
    if (method === 'GET') return json(res, 200, stored.event);
    googleError(res, 405, 'Method Not Allowed', 'methodNotAllowed', 'METHOD_NOT_ALLOWED');
  }

  private watch(account: Account, calendarId: string, body: Record<string, unknown> | undefined, res: ServerResponse): void {
    if (!account.events.has(calendarId)) return googleError(res, 404, 'Not Found', 'notFound', 'NOT_FOUND');
    const id = typeof body?.id === 'string' ? body.id : '';
    const address = typeof body?.address === 'string' ? body.address : '';
    if (!id || body?.type !== 'web_hook') return googleError(res, 400, 'Required', 'required', 'INVALID_ARGUMENT');
    if (!address.startsWith('https://')) return googleError(res, 400, 'WebHook callback must be HTTPS: ' + address, 'push.webhookUrlNotHttps', 'INVALID_ARGUMENT');
    if (this.channels.some((c) => c.id === id)) return googleError(res, 400, `Channel id ${id} not unique`, 'channelIdNotUnique', 'INVALID_ARGUMENT');
    const ttl = Number((body?.params as { ttl?: string } | undefined)?.ttl ?? 604_800);
    const channel: PeerChannel = {
      id,
      resourceId: randomBytes(12).toString('base64url'),
      email: account.email,
      calendarId,
      address,
      token: typeof body?.token === 'string' ? body.token : undefined,
      expiration: Date.now() + Math.min(ttl, 2_592_000) * 1000,
      stopped: false,
      messages: 0,
    };
    this.channels.push(channel);
    json(res, 200, {
      kind: 'api#channel',
      id,
      resourceId: channel.resourceId,
      resourceUri: `${this.url}/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?alt=json`,
      ...(channel.token !== undefined ? { token: channel.token } : {}),
      expiration: String(channel.expiration),
    });
  }

  private stopChannel(body: Record<string, unknown> | undefined, res: ServerResponse): void {
    const channel = this.channels.find((c) => c.id === body?.id && c.resourceId === body?.resourceId && !c.stopped);
    if (!channel) return googleError(res, 404, `Channel '${String(body?.id)}' not found for project`, 'notFound', 'NOT_FOUND');
    channel.stopped = true;
    res.writeHead(204);
    res.end();
  }

  private list(events: Map<string, StoredEvent>, query: Record<string, string>, res: ServerResponse): void {
    const max = Math.min(Number(query.maxResults ?? 250), 2500);
    const offset = Number(query.pageToken?.replace('page-', '') ?? 0);
    let items: GEvent[];
    if (query.syncToken) {
      if (query.timeMin || query.timeMax) return googleError(res, 400, 'Invalid sync token combination', 'invalid', 'INVALID_ARGUMENT');
      if (this.invalidSyncTokens.has(query.syncToken)) {
        return googleError(res, 410, 'Sync token is no longer valid, a full sync is required.', 'fullSyncRequired', 'GONE');
      }
      const since = Number(query.syncToken.replace('sync-', ''));
      items = [...events.values()]
        .filter((s) => s.seq > since)
        .map((s) => (s.deleted ? { kind: 'calendar#event', id: s.event.id, status: 'cancelled' } : s.event));
    } else {
      const timeMin = query.timeMin ? Date.parse(query.timeMin) : -Infinity;
      items = [...events.values()]
        .filter((s) => !s.deleted)
        .map((s) => s.event)
        .filter((e) => {
          const end = e.end as { dateTime?: string; date?: string } | undefined;
          return Date.parse(end?.dateTime ?? `${end?.date}T00:00:00Z`) > timeMin;
        });
    }
    const page = items.slice(offset, offset + max);
    const more = offset + max < items.length;
    json(res, 200, {
      kind: 'calendar#events',
      items: page,
      ...(more ? { nextPageToken: `page-${offset + max}` } : { nextSyncToken: `sync-${this.seq - 1}` }),
    });
  }
}
