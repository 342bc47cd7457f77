import { randomUUID } from 'node:crypto';
import {
  calendarMultiGet,
  createAccount,
  createCalendarObject,
  deleteCalendarObject,
  fetchCalendarObjects,
  fetchCalendars,
  getBasicAuthHeaders,
  makeCalendar,
  propfind,
  syncCollection,
  updateCalendarObject,
  type DAVAccount,
  type DAVResponse,
} from 'tsdav';
import { HostNotAllowedError, type CallObserver, type HostGuard } from '@asistente/kit';
import {
  CaldavError,
  CaldavRedirectError,
  type CaldavChanges,
  type CaldavConnector,
  type CaldavCredentials,
  type CaldavSession,
  type CaldavSyncState,
} from './session.js';
import type { CaldavCalendar, CaldavLocation, CaldavObject } from '../../../domain/caldav.repository.js';
import { guardedFetch, UnsafeTargetError } from './guarded-fetch.js';

const ETAG = { 'd:getetag': {} };
const CALENDAR_DATA = { 'd:getetag': {}, 'c:calendar-data': {} };

/** Turns the transport's failures into the provider errors the domain speaks; the user's own refusals pass. */
function failure(error: unknown): unknown {
  if (error instanceof CaldavError || error instanceof HostNotAllowedError) return error;
  if (error instanceof UnsafeTargetError) return new CaldavError('insecure', error.message);
  const { code, name } = error as { code?: string; name?: string };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new CaldavError('unavailable', 'name does not resolve');
  // The per-request timeout aborts the request (AbortSignal.timeout).
  if (code === 'ABORT_ERR' || name === 'AbortError' || name === 'TimeoutError') return new CaldavError('unavailable', 'timed out');
  if (typeof code === 'string' && code.startsWith('E')) return new CaldavError('unavailable', code);
  return new CaldavError('invalid', error instanceof Error ? error.message : 'not a CalDAV server');
}

function statusError(status: number, what: string): CaldavError {
  if (status === 401) return new CaldavError('auth', `${what}: 401`, status);
  if (status === 403) return new CaldavError('forbidden', `${what}: 403`, status);
  if (status === 404 || status === 410) return new CaldavError('not_found', `${what}: ${status}`, status);
  if (status === 412) return new CaldavError('conflict', `${what}: 412`, status);
  if (status === 429 || status >= 500) return new CaldavError('unavailable', `${what}: ${status}`, status);
  return new CaldavError('invalid', `${what}: ${status}`, status);
}

/** A displayname can come as text or as an XML node; Radicale names unnamed calendars by their path. */
function displayName(value: unknown, url: string): string {
  const name = typeof value === 'string' ? value : typeof value === 'object' && value && '_cdata' in value ? String((value as { _cdata: unknown })._cdata) : '';
  return name.trim() || decodeURIComponent(url.replace(/\/$/, '').split('/').pop() ?? 'Calendario');
}

/** Where tsdav's discovery goes for a Location (its rules: the same host keeps the port, no scheme keeps ours). */
function discoveryTarget(location: string, from: URL): URL {
  const target = new URL(location, from);
  if (target.hostname === from.hostname && from.port && !target.port) target.port = from.port;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(location)) target.protocol = from.protocol;
  return target;
}

/** Apple's calendar-color is #RRGGBBAA: the screen wants #RRGGBB. */
function color(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(value.trim());
  return match ? `#${match[1]!.toLowerCase()}` : null;
}

const text = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : String(value));

/**
 * A CalDAV account through tsdav (RFC 4791/6578): discovery via `/.well-known/caldav`, the principal and the
 * calendar home; calendars; changes since the last sync (sync-collection when the server offers it, the
 * collection's ctag and each object's etag otherwise); objects written with `If-None-Match: *` and changed or
 * removed with `If-Match: <etag>`, so a change made elsewhere meanwhile is a conflict, never overwritten.
 * Every request goes through the given fetch (the kit's host guard and a timeout: see guarded-fetch.ts).
 */
export class CaldavClient implements CaldavSession {
  private constructor(
    private readonly account: DAVAccount,
    private readonly headers: Record<string, string>,
    private readonly fetch: typeof globalThis.fetch,
  ) {}

  /** Finds the account behind a server URL; a wrong password is CaldavError('auth'). */
  static async discover(serverUrl: string, credentials: CaldavCredentials, fetch: typeof globalThis.fetch): Promise<CaldavClient> {
    const guarded = CaldavClient.refusing401(fetch);
    const headers = getBasicAuthHeaders(credentials);
    let refused: CaldavRedirectError | undefined;
    const discovery = CaldavClient.withinOrigin(guarded, (redirect) => (refused ??= redirect));
    try {
      const account = await createAccount({ account: { serverUrl, accountType: 'caldav' }, headers, fetch: discovery });
      if (!account.homeUrl || !account.principalUrl) throw new CaldavError('invalid', 'no calendar home');
      return new CaldavClient(account, headers, guarded);
    } catch (error) {
      const failed = failure(error);
      // Nothing answered at the typed URL itself: the refused redirect is what the user must act on.
      throw refused && failed instanceof CaldavError ? refused : failed;
    }
  }

  /**
   * tsdav reads the Location of `/.well-known/caldav` itself (`redirect: 'manual'`) and then sends every
   * request, password included, wherever it points. Only a redirect within the origin the user typed is let
   * through; another origin is refused before any request goes there (tsdav, catching it, stays on the typed
   * URL) and `refused` hears where it pointed.
   */
  private static withinOrigin(fetch: typeof globalThis.fetch, refused: (redirect: CaldavRedirectError) => void): typeof globalThis.fetch {
    return (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      const location = response.headers.get('location');
      if (init?.redirect !== 'manual' || response.status < 300 || response.status >= 400 || !location) return response;
      const from = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const target = discoveryTarget(location, from);
      if (target.origin === from.origin) return response;
      const redirect = new CaldavRedirectError(target.origin);
      refused(redirect);
      throw redirect;
    }) as typeof globalThis.fetch;
  }

  /** An account found before (its stored location): no discovery. */
  static open(location: CaldavLocation, credentials: CaldavCredentials, fetch: typeof globalThis.fetch): CaldavClient {
    const account: DAVAccount = { accountType: 'caldav', ...location };
    return new CaldavClient(account, getBasicAuthHeaders(credentials), CaldavClient.refusing401(fetch));
  }

  /** tsdav reads a 401 as an empty answer in places: stop at the first one, whatever the request. */
  private static refusing401(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
    return (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (response.status === 401) throw new CaldavError('auth', 'the server refused the credentials', 401);
      return response;
    }) as typeof globalThis.fetch;
  }

  get location(): CaldavLocation {
    return { serverUrl: this.account.serverUrl, rootUrl: this.account.rootUrl ?? this.account.serverUrl, principalUrl: this.account.principalUrl ?? '', homeUrl: this.account.homeUrl ?? '' };
  }

  /** The calendars that hold events (task-only lists left out). */
  async listCalendars(): Promise<CaldavCalendar[]> {
    const calendars = await this.call(() => fetchCalendars({ account: this.account, headers: this.headers, fetch: this.fetch }));
    return calendars
      .filter((c) => !c.components || c.components.length === 0 || c.components.includes('VEVENT'))
      .map((c) => ({
        id: c.url,
        name: displayName(c.displayName, c.url),
        color: color(c.calendarColor),
        ctag: text(c.ctag),
        syncToken: text(c.syncToken),
        supportsSync: Array.isArray(c.reports) && (c.reports as unknown[]).includes('syncCollection'),
      }));
  }

  /**
   * A new collection under the calendar home, for events only. Its path is a fresh UUID, never the name: any
   * name the user types is a valid display name, and two calendars may share one.
   */
  async makeCalendar(name: string): Promise<string> {
    const home = this.account.homeUrl ?? '';
    const url = new URL(`${randomUUID()}/`, home.endsWith('/') ? home : `${home}/`).href;
    const props = { 'd:displayname': name, 'c:supported-calendar-component-set': { 'c:comp': { _attributes: { name: 'VEVENT' } } } };
    const [answer] = await this.call(() => makeCalendar({ url, props, headers: this.headers, fetch: this.fetch }));
    if (answer && answer.ok === false) throw statusError(answer.status, 'mkcalendar');
    return url;
  }

  /**
   * What changed in the calendar since `state`: nothing when its ctag is the same; the sync-collection report
   * from the stored token when offered (a token the server no longer knows lists everything again); else the
   * etags of every object compared with the mirror's, fetching only the new and changed ones.
   */
  async changes(calendar: { id: string; supportsSync: boolean }, state: CaldavSyncState): Promise<CaldavChanges> {
    const marks = await this.marks(calendar.id);
    if (state.etags.size > 0 && marks.ctag !== null && marks.ctag === state.ctag) {
      return { full: false, upserts: [], removals: [], ...marks };
    }
    if (state.etags.size > 0 && calendar.supportsSync && state.syncToken) {
      const changed = await this.call(() => syncCollection({ url: calendar.id, props: ETAG, syncLevel: 1, syncToken: state.syncToken!, headers: this.headers, fetch: this.fetch }));
      const expired = changed.some((r) => r.status === 403 || r.status === 409 || (r.ok === false && !r.href?.endsWith('.ics')));
      if (!expired) {
        const objects = changed.filter((r) => r.href && this.resolve(r.href, calendar.id) !== calendar.id);
        const removals = objects.filter((r) => r.status === 404).map((r) => this.resolve(r.href!, calendar.id));
        const wanted = objects.filter((r) => r.status !== 404).map((r) => this.resolve(r.href!, calendar.id));
        return { full: false, upserts: await this.multiget(calendar.id, wanted), removals, ...marks };
      }
    }
    if (state.etags.size > 0) {
      const listing = await this.call(() => propfind({ url: calendar.id, props: ETAG, depth: '1', headers: this.headers, fetch: this.fetch }));
      const remote = new Map(
        listing.filter((r) => r.href && r.ok !== false && this.resolve(r.href, calendar.id) !== calendar.id).map((r) => [this.resolve(r.href!, calendar.id), text(r.props?.getetag)]),
      );
      const wanted = [...remote].filter(([href, etag]) => !state.etags.has(href) || state.etags.get(href) !== etag).map(([href]) => href);
      const removals = [...state.etags.keys()].filter((href) => !remote.has(href));
      return { full: false, upserts: await this.multiget(calendar.id, wanted), removals, ...marks };
    }
    const all = await this.call(() => fetchCalendarObjects({ calendar: { url: calendar.id }, headers: this.headers, fetch: this.fetch }));
    return {
      full: true,
      upserts: all.filter((o) => typeof o.data === 'string' && o.data !== '').map((o) => ({ href: o.url, etag: text(o.etag), ics: o.data as string })),
      removals: [],
      ...marks,
    };
  }

  /** Creates the object `<uid>.ics` in the calendar; never replaces one that exists. */
  async create(calendarId: string, uid: string, ics: string): Promise<{ href: string; etag: string | null }> {
    const filename = `${encodeURIComponent(uid)}.ics`;
    const response = await this.call(() => createCalendarObject({ calendar: { url: calendarId }, filename, iCalString: ics, headers: this.headers, fetch: this.fetch }));
    if (!response.ok) throw statusError(response.status, 'create');
    const href = new URL(filename, calendarId.endsWith('/') ? calendarId : `${calendarId}/`).href;
    return { href, etag: text(response.headers.get('etag')) ?? (await this.etagOf(href)) };
  }

  /** Replaces the object if it is still the version `etag` names (412 otherwise: a 'conflict'). */
  async update(href: string, ics: string, etag: string | null): Promise<string | null> {
    const response = await this.call(() =>
      updateCalendarObject({ calendarObject: { url: href, data: ics, ...(etag ? { etag } : {}) }, headers: this.headers, fetch: this.fetch }),
    );
    if (!response.ok) throw statusError(response.status, 'update');
    return text(response.headers.get('etag')) ?? (await this.etagOf(href));
  }

  /** Removes the object if it is still the version `etag` names; one already gone is not an error. */
  async remove(href: string, etag: string | null): Promise<void> {
    const response = await this.call(() => deleteCalendarObject({ calendarObject: { url: href, ...(etag ? { etag } : {}) }, headers: this.headers, fetch: this.fetch }));
    if (!response.ok && response.status !== 404 && response.status !== 410) throw statusError(response.status, 'delete');
  }

  private async marks(calendarId: string): Promise<{ ctag: string | null; syncToken: string | null }> {
    const [answer] = await this.call(() => propfind({ url: calendarId, props: { 'cs:getctag': {}, 'd:sync-token': {} }, depth: '0', headers: this.headers, fetch: this.fetch }));
    if (answer && answer.ok === false && answer.status >= 400) throw statusError(answer.status, 'calendar');
    return { ctag: text(answer?.props?.getctag), syncToken: text(answer?.props?.syncToken) };
  }

  private async etagOf(href: string): Promise<string | null> {
    const [answer] = await this.call(() => propfind({ url: href, props: ETAG, depth: '0', headers: this.headers, fetch: this.fetch }));
    return text(answer?.props?.getetag);
  }

  private async multiget(calendarId: string, hrefs: string[]): Promise<CaldavObject[]> {
    if (hrefs.length === 0) return [];
    const answers: DAVResponse[] = await this.call(() =>
      calendarMultiGet({ url: calendarId, props: CALENDAR_DATA, objectUrls: hrefs.map((h) => new URL(h).pathname), depth: '1', headers: this.headers, fetch: this.fetch }),
    );
    return answers.flatMap((r) => {
      const data = r.props?.calendarData as unknown;
      const ics = typeof data === 'string' ? data : typeof data === 'object' && data && '_cdata' in data ? String((data as { _cdata: unknown })._cdata) : '';
      return r.href && ics ? [{ href: this.resolve(r.href, calendarId), etag: text(r.props?.getetag), ics }] : [];
    });
  }

  /** Servers answer paths; the mirror keeps absolute URLs (the ids tsdav and the user's calendar use). */
  private resolve(href: string, base: string): string {
    return new URL(href, base).href;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw failure(error);
    }
  }
}

/** Sessions whose every request passes the kit's host guard, gives up after `timeoutMs` and is heard by `observe`. */
export function caldavConnector(guard: HostGuard, timeoutMs: number, observe?: CallObserver): CaldavConnector {
  const fetch = guardedFetch(guard, timeoutMs, observe);
  return {
    discover: (serverUrl, credentials) => CaldavClient.discover(serverUrl, credentials, fetch),
    open: (location, credentials) => CaldavClient.open(location, credentials, fetch),
  };
}
