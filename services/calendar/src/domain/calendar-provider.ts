import type { CalendarRecord, EventInput, EventRecord } from './event-record.js';

/** A page of changes since the last sync: cancelled events are removals, the rest upserts. */
export interface EventChanges {
  /** true when this was a full listing (no sync token, or the old one expired): the mirror replaces its copy. */
  full: boolean;
  upserts: EventRecord[];
  removals: string[];
  nextSyncToken: string | null;
}

export interface WriteOptions {
  /** Attach a new video conference (Google Meet) to the event. */
  conference?: boolean;
  /** Email the attendees an invitation (or an update). */
  notifyAttendees?: boolean;
}

/** A push channel to open: Google posts to `address` with the channel id and `token` when events change. */
export interface ChannelRequest {
  id: string;
  address: string;
  token: string;
  ttlSeconds: number;
}

/**
 * One connected calendar account: the capability the domain speaks, whatever the provider (Cal.com's `Calendar`
 * interface, reduced to what the product does). Implementations throw ProviderError.
 */
export interface CalendarProvider {
  listCalendars(): Promise<CalendarRecord[]>;
  /** Changes since `syncToken`, or everything from `since` when there is none. */
  listChanges(calendarId: string, syncToken: string | null, since: Date): Promise<EventChanges>;
  createEvent(calendarId: string, input: EventInput, options?: WriteOptions): Promise<EventRecord>;
  updateEvent(calendarId: string, eventId: string, input: Partial<EventInput>, options?: WriteOptions): Promise<EventRecord>;
  deleteEvent(calendarId: string, eventId: string, options?: WriteOptions): Promise<void>;
  /** Opens a push channel on the calendar's events; the provider says when it expires. */
  watchEvents(calendarId: string, channel: ChannelRequest): Promise<{ resourceId: string; expiresAt: Date }>;
  stopChannel(id: string, resourceId: string): Promise<void>;
}

export type ProviderErrorKind =
  /** The calendar or event does not exist (or this account cannot see it). */
  | 'not_found'
  /** The sync token expired: list everything again. */
  | 'sync_expired'
  /** The user withdrew the grant (or it expired): only a new connection helps. */
  | 'revoked'
  /** The account may not do this (a read-only calendar). */
  | 'forbidden'
  /** Still rate limited after the retries. */
  | 'rate_limited'
  /** The provider refused the request as malformed. */
  | 'invalid'
  /** Timeouts, network failures and 5xx answers. */
  | 'unavailable';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
