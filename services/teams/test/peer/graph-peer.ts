import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Graph from '@microsoft/microsoft-graph-types';
import type { PeerTls } from './peer-tls.js';

/**
 * A protocol-faithful stand-in for the Microsoft identity platform (v2.0 authorize and token endpoints)
 * and the Graph v1.0 subset the teams service uses: JSON shapes, `@odata.nextLink` paging with
 * `$skiptoken`, `$top`/`$skip`/`$filter`/`$orderby` where Graph honours them, OData error bodies,
 * 401 for an expired token, 429 with Retry-After. HTTPS with a self-signed certificate, like the real one.
 */

export interface PeerTeam {
  id: string;
  displayName: string;
  members: string[];
  channels: PeerChannel[];
}

export interface PeerChannel {
  id: string;
  displayName: string;
  membershipType: 'standard' | 'private' | 'shared';
  members: string[];
  /** Oldest first; Graph answers newest first. */
  messages: Graph.ChatMessage[];
}

export interface PeerCalendar {
  id: string;
  name: string;
  hexColor: string;
  isDefaultCalendar: boolean;
  events: Graph.Event[];
}

interface Fault {
  match: RegExp;
  method: string | undefined;
  status: number;
  retryAfter: number | undefined;
  times: number;
}

export interface PeerRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

export const PEER_CLIENT = { id: 'cliente-de-prueba', secret: 'secreto-de-prueba-123' };

const odataError = (code: string, message: string) => ({ error: { code, message, innerError: { 'request-id': randomUUID(), date: new Date().toISOString() } } });

/** RFC 7636 S256, as the identity platform checks it: a code issued with a challenge needs the matching verifier. */
function pkceHolds(challenge: string | undefined, verifier: string | undefined): boolean {
  if (challenge === undefined) return verifier === undefined;
  return verifier !== undefined && createHash('sha256').update(verifier).digest('base64url') === challenge;
}

export class GraphPeer {
  readonly me = { id: randomUUID(), displayName: 'Ana Torres', mail: 'ana@contoso.example', userPrincipalName: 'ana@contoso.example' };
  readonly teams: PeerTeam[] = [];
  readonly calendars: PeerCalendar[] = [];
  readonly requests: PeerRequest[] = [];
  /** Page size the peer uses when the client gives no $top (Graph's defaults differ per resource). */
  pageSize = 20;
  /** Added to every Graph answer, to measure a client beside its peer. */
  latencyMs = 0;
  accessTokenTtlSeconds = 3600;

  private server: Server | undefined;
  /** Issued codes, with the PKCE challenge their authorization request carried (S256), if any. */
  private readonly codes = new Map<string, { redirectUri: string; challenge: string | undefined }>();
  private readonly accessTokens = new Map<string, number>();
  private readonly refreshTokens = new Set<string>();
  private faults: Fault[] = [];
  url = '';

  constructor(private readonly tls: PeerTls) {}

  get loginUrl(): string {
    return this.url;
  }

  get graphUrl(): string {
    return `${this.url}/v1.0`;
  }

  /** The product's Microsoft settings pointed at this peer, as its registered client (`PEER_CLIENT`). */
  config() {
    return {
      MICROSOFT_CLIENT_ID: PEER_CLIENT.id,
      MICROSOFT_CLIENT_SECRET: PEER_CLIENT.secret,
      MICROSOFT_LOGIN_URL: this.loginUrl,
      MICROSOFT_GRAPH_URL: this.graphUrl,
    };
  }

  async start(): Promise<this> {
    this.server = createServer({ key: this.tls.key, cert: this.tls.cert }, (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) this.json(res, 500, odataError('generalException', String(error)));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The next `times` requests matching `path` (and `method`) fail with `status`. */
  failNext(path: RegExp, status: number, options: { retryAfter?: number; times?: number; method?: string } = {}): void {
    this.faults.push({ match: path, method: options.method, status, retryAfter: options.retryAfter, times: options.times ?? 1 });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Every access token issued so far stops working, as when Microsoft's one-hour token lapses. */
  expireAccessTokens(): void {
    for (const token of this.accessTokens.keys()) this.accessTokens.set(token, 0);
  }

  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  graphRequests(pathPattern?: RegExp): PeerRequest[] {
    return this.requests.filter((r) => r.path.startsWith('/v1.0/') && (!pathPattern || pathPattern.test(r.path)));
  }

  addTeam(displayName: string, memberCount: number, channels: { displayName: string; membershipType?: PeerChannel['membershipType']; memberCount?: number }[]): PeerTeam {
    const members = Array.from({ length: memberCount }, (_, i) => (i === 0 ? this.me.id : randomUUID()));
    const team: PeerTeam = {
      id: `19:${randomBytes(8).toString('hex')}@thread.tacv2`,
      displayName,
      members,
      channels: channels.map((c) => ({
        id: `19:${randomBytes(8).toString('hex')}@thread.tacv2`,
        displayName: c.displayName,
        membershipType: c.membershipType ?? 'standard',
        members: members.slice(0, c.memberCount ?? memberCount),
        messages: [],
      })),
    };
    this.teams.push(team);
    return team;
  }

  /** A message by someone else (or by the connected user with `fromMe`), HTML as Teams stores it. */
  addMessage(channel: PeerChannel, html: string, options: { author?: string; fromMe?: boolean; at?: Date } = {}): Graph.ChatMessage {
    const message: Graph.ChatMessage = {
      id: `${Date.now()}${String(channel.messages.length).padStart(6, '0')}`,
      messageType: 'message',
      createdDateTime: (options.at ?? new Date()).toISOString(),
      from: {
        user: options.fromMe
          ? { id: this.me.id, displayName: this.me.displayName }
          : { id: randomUUID(), displayName: options.author ?? 'Carlos Ruiz' },
      },
      body: { contentType: 'html', content: html },
    };
    channel.messages.push(message);
    return message;
  }

  addCalendar(name: string, hexColor: string, isDefaultCalendar = false): PeerCalendar {
    const calendar: PeerCalendar = { id: `AAMk${randomBytes(10).toString('hex')}`, name, hexColor, isDefaultCalendar, events: [] };
    this.calendars.push(calendar);
    return calendar;
  }

  addEvent(calendar: PeerCalendar, event: Graph.Event): Graph.Event {
    const stored: Graph.Event = {
      id: `AAMkEv${randomBytes(10).toString('hex')}`,
      createdDateTime: new Date().toISOString(),
      lastModifiedDateTime: new Date().toISOString(),
      isCancelled: false,
      isAllDay: false,
      type: 'singleInstance',
      ...event,
    };
    calendar.events.push(stored);
    return stored;
  }

  // --- HTTP -------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, authorization: req.headers.authorization });
    const identity = /^\/([^/]+)\/oauth2\/v2\.0\/(authorize|token)$/.exec(url.pathname);
    if (identity) {
      if (identity[2] === 'authorize') return this.authorize(url, res);
      return this.token(new URLSearchParams(body), res);
    }
    if (!url.pathname.startsWith('/v1.0/')) return this.json(res, 404, odataError('UnknownError', 'Not found'));
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));

    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expires = token ? this.accessTokens.get(token) : undefined;
    if (expires === undefined) return this.json(res, 401, odataError('InvalidAuthenticationToken', 'Access token is empty or invalid.'));
    if (expires < Date.now()) return this.json(res, 401, odataError('InvalidAuthenticationToken', 'Lifetime validation failed, the token is expired.'));

    const fault = this.faults.find((f) => f.match.test(url.pathname) && (!f.method || f.method === req.method));
    if (fault) {
      fault.times -= 1;
      if (fault.times <= 0) this.faults = this.faults.filter((f) => f !== fault);
      if (fault.retryAfter !== undefined) res.setHeader('Retry-After', String(fault.retryAfter));
      const codes: Record<number, string> = { 403: 'Forbidden', 404: 'NotFound', 429: 'TooManyRequests', 503: 'ServiceNotAvailable' };
      return this.json(res, fault.status, odataError(codes[fault.status] ?? 'UnknownError', `Injected ${fault.status}`));
    }
    return this.graph(req.method ?? 'GET', url, body, req.headers, res);
  }

  private authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== PEER_CLIENT.id || !redirectUri || q.get('response_type') !== 'code') {
      return this.json(res, 400, { error: 'invalid_request', error_description: 'AADSTS900144: bad authorize request' });
    }
    const challenge = q.get('code_challenge') ?? undefined;
    if (challenge !== undefined && q.get('code_challenge_method') !== 'S256') {
      return this.json(res, 400, { error: 'invalid_request', error_description: 'AADSTS501491: Invalid code_challenge_method.' });
    }
    // The test identity provider consents at once, as a user who clicks "Accept".
    const code = `M.C${randomBytes(16).toString('hex')}`;
    this.codes.set(code, { redirectUri, challenge });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { Location: back.toString() }).end();
  }

  private token(form: URLSearchParams, res: ServerResponse): void {
    if (form.get('client_id') !== PEER_CLIENT.id || form.get('client_secret') !== PEER_CLIENT.secret) {
      return this.json(res, 401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    }
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const issued = this.codes.get(form.get('code') ?? '');
      if (!issued || issued.redirectUri !== form.get('redirect_uri')) {
        return this.json(res, 400, { error: 'invalid_grant', error_description: 'AADSTS70000: The provided authorization code is invalid.' });
      }
      this.codes.delete(form.get('code') ?? '');
      if (!pkceHolds(issued.challenge, form.get('code_verifier') ?? undefined)) {
        return this.json(res, 400, { error: 'invalid_grant', error_description: 'AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.' });
      }
    } else if (grant === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (!this.refreshTokens.has(refresh)) {
        return this.json(res, 400, { error: 'invalid_grant', error_description: 'AADSTS700082: The refresh token has expired.' });
      }
      this.refreshTokens.delete(refresh);
    } else {
      return this.json(res, 400, { error: 'unsupported_grant_type', error_description: 'AADSTS70003' });
    }
    const accessToken = `eyJ0eXAi.${randomBytes(24).toString('base64url')}`;
    const refreshToken = `M.R3_${randomBytes(24).toString('base64url')}`;
    this.accessTokens.set(accessToken, Date.now() + this.accessTokenTtlSeconds * 1000);
    this.refreshTokens.add(refreshToken);
    this.json(res, 200, {
      token_type: 'Bearer',
      scope: form.get('scope') ?? '',
      expires_in: this.accessTokenTtlSeconds,
      ext_expires_in: this.accessTokenTtlSeconds,
      access_token: accessToken,
      refresh_token: refreshToken,
    });
  }

  private graph(method: string, url: URL, body: string, headers: IncomingMessage['headers'], res: ServerResponse): void {
    const path = url.pathname.slice('/v1.0'.length);
    const q = url.searchParams;
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const utc = /outlook\.timezone="UTC"/.test(String(headers.prefer ?? ''));
    const notFound = () => this.json(res, 404, odataError('NotFound', 'Resource not found.'));

    if (method === 'GET' && path === '/me') return this.json(res, 200, { '@odata.context': `${this.graphUrl}/$metadata#users/$entity`, ...this.me });
    if (method === 'GET' && path === '/me/joinedTeams') return this.page(res, url, this.teams.map((t) => ({ id: t.id, displayName: t.displayName, description: null })));
    if (method === 'GET' && path === '/me/calendar') {
      const calendar = this.calendars.find((c) => c.isDefaultCalendar);
      if (!calendar) return notFound();
      return this.json(res, 200, { '@odata.context': `${this.graphUrl}/$metadata#users('me')/calendar(id,name)/$entity`, id: calendar.id, name: calendar.name });
    }
    if (method === 'GET' && path === '/me/calendars') {
      return this.page(res, url, this.calendars.map((c) => ({ id: c.id, name: c.name, color: 'auto', hexColor: c.hexColor, isDefaultCalendar: c.isDefaultCalendar })));
    }

    if (parts[0] === 'teams') {
      const team = this.teams.find((t) => t.id === parts[1]);
      if (!team) return notFound();
      if (method === 'GET' && parts.length === 3 && parts[2] === 'members') return this.page(res, url, team.members.map(member));
      if (method === 'GET' && parts.length === 3 && parts[2] === 'channels') {
        return this.page(res, url, team.channels.map((c) => ({ id: c.id, displayName: c.displayName, membershipType: c.membershipType })));
      }
      const channel = parts[2] === 'channels' ? team.channels.find((c) => c.id === parts[3]) : undefined;
      if (!channel) return notFound();
      if (method === 'GET' && parts[4] === 'members') return this.page(res, url, channel.members.map(member));
      if (parts[4] === 'messages' && parts.length === 5) {
        if (method === 'GET') {
          // Graph: at most 50 a page, newest first.
          const top = Math.min(Number(q.get('$top') ?? this.pageSize) || this.pageSize, 50);
          return this.page(res, url, [...channel.messages].reverse(), top);
        }
        if (method === 'POST') {
          const input = JSON.parse(body) as { body?: { content?: string; contentType?: string } };
          if (!input.body?.content) return this.json(res, 400, odataError('BadRequest', 'Missing body content'));
          const created = this.addMessage(channel, input.body.content, { fromMe: true });
          created.body = { contentType: (input.body.contentType as Graph.BodyType | undefined) ?? 'text', content: input.body.content };
          return this.json(res, 201, created);
        }
      }
      return notFound();
    }

    const view = path === '/me/calendar/calendarView' ? this.calendars.find((c) => c.isDefaultCalendar)
      : parts[0] === 'me' && parts[1] === 'calendars' && parts[3] === 'calendarView' ? this.calendars.find((c) => c.id === parts[2]) ?? null
        : undefined;
    if (method === 'GET' && view !== undefined) {
      if (!view) return notFound();
      const from = Date.parse(q.get('startDateTime') ?? '');
      const to = Date.parse(q.get('endDateTime') ?? '');
      if (!Number.isFinite(from) || !Number.isFinite(to)) {
        return this.json(res, 400, odataError('ErrorInvalidParameter', "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime."));
      }
      const inRange = view.events.filter((e) => instant(e.start) < to && instant(e.end) > from).sort((a, b) => instant(a.start) - instant(b.start));
      return this.page(res, url, inRange.map((e) => inZone(e, utc)));
    }

    // One calendar's events (/me/calendar/events is the default one's): create, update (PATCH), delete.
    const owner = path.startsWith('/me/calendar/events') ? this.calendars.find((c) => c.isDefaultCalendar)
      : parts[0] === 'me' && parts[1] === 'calendars' && parts[3] === 'events' ? this.calendars.find((c) => c.id === parts[2]) ?? null
        : undefined;
    if (owner !== undefined) {
      const eventId = path.startsWith('/me/calendar/events') ? parts[3] : parts[4];
      if (!owner) return notFound();
      if (method === 'POST' && eventId === undefined) {
        const input = JSON.parse(body) as Graph.Event;
        const invalid = eventProblem(input, true);
        if (invalid) return this.json(res, 400, odataError('ErrorInvalidRequest', invalid));
        return this.json(res, 201, inZone(this.addEvent(owner, input), utc));
      }
      const index = owner.events.findIndex((e) => e.id === eventId);
      if (eventId === undefined || index < 0) return notFound();
      if (method === 'PATCH') {
        const input = JSON.parse(body) as Graph.Event;
        const changed: Graph.Event = { ...owner.events[index]!, ...input, lastModifiedDateTime: new Date().toISOString() };
        const invalid = eventProblem(changed, false);
        if (invalid) return this.json(res, 400, odataError('ErrorInvalidRequest', invalid));
        owner.events[index] = changed;
        return this.json(res, 200, inZone(changed, utc));
      }
      if (method === 'DELETE') {
        owner.events.splice(index, 1);
        res.writeHead(204).end();
        return undefined;
      }
    }

    if (path === '/me/events') {
      const calendar = this.calendars.find((c) => c.isDefaultCalendar);
      if (!calendar) return notFound();
      if (method === 'POST') {
        const input = JSON.parse(body) as Graph.Event;
        if (!input.subject || !input.start?.dateTime || !input.end?.dateTime) return this.json(res, 400, odataError('ErrorInvalidRequest', 'Invalid event.'));
        const created = this.addEvent(calendar, {
          ...input,
          start: { dateTime: input.start.dateTime, timeZone: input.start.timeZone ?? 'UTC' },
          end: { dateTime: input.end.dateTime, timeZone: input.end.timeZone ?? 'UTC' },
          ...(input.isOnlineMeeting
            ? { onlineMeeting: { joinUrl: `https://teams.microsoft.com/l/meetup-join/19%3ameeting_${randomBytes(12).toString('hex')}%40thread.v2/0` } }
            : {}),
        });
        return this.json(res, 201, inZone(created, utc));
      }
      if (method === 'GET') {
        let events = [...calendar.events];
        const filter = q.get('$filter') ?? '';
        // As Graph: isOnlineMeeting and onlineMeetingProvider cannot be filtered on.
        if (/isOnlineMeeting|onlineMeetingProvider/.test(filter)) {
          return this.json(res, 400, odataError('ErrorInvalidProperty', "The property 'IsOnlineMeeting' does not support filtering."));
        }
        const endGe = /end\/dateTime ge '([^']+)'/.exec(filter)?.[1];
        if (endGe) events = events.filter((e) => instant(e.end) >= Date.parse(`${endGe}Z`));
        if (q.get('$orderby') === 'start/dateTime') events.sort((a, b) => instant(a.start) - instant(b.start));
        const skip = Number(q.get('$skip') ?? 0);
        const top = Number(q.get('$top') ?? 10);
        return this.json(res, 200, { value: events.slice(skip, skip + top).map((e) => inZone(e, utc)) });
      }
    }
    return this.json(res, 400, odataError('BadRequest', `Unsupported request: ${method} ${path}`));
  }

  /** One page of `items` with a `$skiptoken` next link, as Graph pages collections. */
  private page(res: ServerResponse, url: URL, items: unknown[], size?: number): void {
    const top = size ?? Math.min(Number(url.searchParams.get('$top') ?? this.pageSize) || this.pageSize, 999);
    const skip = Number(url.searchParams.get('$skiptoken') ?? 0);
    const value = items.slice(skip, skip + top);
    const answer: Record<string, unknown> = { '@odata.context': `${this.graphUrl}/$metadata`, value };
    if (skip + top < items.length) {
      const next = new URL(url.toString());
      next.searchParams.set('$skiptoken', String(skip + top));
      next.searchParams.set('$top', String(top));
      answer['@odata.nextLink'] = next.toString();
    }
    this.json(res, 200, answer);
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json; odata.metadata=minimal' }).end(JSON.stringify(body));
  }
}

/** What Graph refuses in an event it is asked to store: no subject (on create), no times, an all-day one not at midnight. */
function eventProblem(event: Graph.Event, creating: boolean): string | undefined {
  if (creating && !event.subject) return 'Invalid event: subject is required.';
  if (!event.start?.dateTime || !event.end?.dateTime) return 'Invalid event: start and end are required.';
  if (instant(event.end) <= instant(event.start)) return 'The end of the event must be after its start.';
  const midnight = (v: Graph.DateTimeTimeZone) => /T00:00:00(\.0+)?$/.test(v.dateTime ?? '');
  if (event.isAllDay && (!midnight(event.start) || !midnight(event.end))) {
    return 'Your request can\'t be completed. If the event is an all-day event, start and end must be at midnight.';
  }
  return undefined;
}

function member(id: string) {
  return { '@odata.type': '#microsoft.graph.aadUserConversationMember', id: `MCMjMi${id}`, userId: id, roles: [] };
}

function instant(value: Graph.DateTimeTimeZone | null | undefined): number {
  const raw = value?.dateTime ?? '';
  return Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(raw) ? raw : `${raw}Z`);
}

/** Graph answers times in the mailbox zone unless the client prefers UTC; our mailbox zone is Madrid (+01:00 in winter). */
function inZone(event: Graph.Event, utc: boolean): Graph.Event {
  if (utc) {
    const toUtc = (v: Graph.DateTimeTimeZone | null | undefined) => ({ dateTime: new Date(instant(v)).toISOString().slice(0, 23) + '0000', timeZone: 'UTC' });
    return { ...event, start: toUtc(event.start), end: toUtc(event.end) };
  }
  const toMadrid = (v: Graph.DateTimeTimeZone | null | undefined) => ({
    dateTime: new Date(instant(v) + 3600_000).toISOString().slice(0, 23) + '0000',
    timeZone: 'Romance Standard Time',
  });
  return { ...event, start: toMadrid(event.start), end: toMadrid(event.end) };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
