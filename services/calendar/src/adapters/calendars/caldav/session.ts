/**
 * What CalDAV's adapter needs of a CalDAV server, implemented by client.ts (tsdav). Objects are raw iCalendar
 * text; the domain's icalendar.ts reads and writes them, its CaldavRepository mirrors them.
 */
import type { CaldavCalendar, CaldavLocation, CaldavObject } from '../../../domain/caldav.repository.js';

/** Username and app password: what a CalDAV server asks of every request (HTTP Basic). */
export interface CaldavCredentials {
  username: string;
  password: string;
}

/** What the mirror knows of a calendar: the markers of its last sync and each object's etag. */
export interface CaldavSyncState {
  ctag: string | null;
  syncToken: string | null;
  etags: Map<string, string | null>;
}

export interface CaldavChanges {
  /** A full listing: the mirror replaces its copy. */
  full: boolean;
  upserts: CaldavObject[];
  removals: string[];
  ctag: string | null;
  syncToken: string | null;
}

/** One signed-in account on a CalDAV server. Methods throw CaldavError (or the kit's HostNotAllowedError). */
export interface CaldavSession {
  readonly location: CaldavLocation;
  listCalendars(): Promise<CaldavCalendar[]>;
  /** Makes a new event calendar named `name` in the account's calendar home (MKCALENDAR); its URL. */
  makeCalendar(name: string): Promise<string>;
  changes(calendar: { id: string; supportsSync: boolean }, state: CaldavSyncState): Promise<CaldavChanges>;
  create(calendarId: string, uid: string, ics: string): Promise<{ href: string; etag: string | null }>;
  update(href: string, ics: string, etag: string | null): Promise<string | null>;
  remove(href: string, etag: string | null): Promise<void>;
}

export interface CaldavConnector {
  /** Discovery from the URL the user typed; a wrong password is CaldavError('auth'). */
  discover(serverUrl: string, credentials: CaldavCredentials): Promise<CaldavSession>;
  /** A session on a location found before (no discovery). */
  open(location: CaldavLocation, credentials: CaldavCredentials): CaldavSession;
}

export type CaldavErrorKind =
  /** The server refused the username or password. */
  | 'auth'
  /** Timeouts, refused connections, names that do not resolve, 5xx. */
  | 'unavailable'
  /** The URL is not http(s), or plain http to a host that is not an allowed private address. */
  | 'insecure'
  /** The server answered, but not as a CalDAV server (no principal, no calendar home) or refused the data. */
  | 'invalid'
  /** If-Match failed: the object changed on the server since it was read. */
  | 'conflict'
  | 'not_found'
  | 'forbidden'
  /** Discovery pointed to another origin: not followed, so the password stays with the origin typed. */
  | 'redirect';

export class CaldavError extends Error {
  constructor(
    readonly kind: CaldavErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CaldavError';
  }
}

/** Discovery's `/.well-known/caldav` sent us to another origin (`target`: scheme, host and port only). */
export class CaldavRedirectError extends CaldavError {
  constructor(readonly target: string) {
    super('redirect', 'discovery redirected to another origin');
    this.name = 'CaldavRedirectError';
  }
}
