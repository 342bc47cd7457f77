import type { CalendarRecord, EventRecord } from '../event-record.js';

/** A page of changes since the last sync: cancelled events are removals, the rest upserts. */
export interface EventChanges {
  /** true when this was a full listing (no sync token, or the old one expired): the mirror replaces its copy. */
  full: boolean;
  upserts: EventRecord[];
  removals: string[];
  nextSyncToken: string | null;
}

/** A push channel to open: the provider posts to `address` with the channel id and `token` when events change. */
export interface ChannelRequest {
  id: string;
  address: string;
  token: string;
  ttlSeconds: number;
}

/**
 * What the mirror sync reads of an account it mirrors (Google's): the calendar list, each calendar's changes
 * since the last sync token, and push channels that say when to look again. Not a calendar: the registry and the
 * screens speak CalendarPort, and writes are the provider's adapter's own (it records them in the mirror).
 * Implementations throw ProviderError.
 */
export interface MirrorFeed {
  calendars(): Promise<CalendarRecord[]>;
  /** Changes since `syncToken`, or everything from `since` when there is none. */
  changes(calendarId: string, syncToken: string | null, since: Date): Promise<EventChanges>;
  /** Opens a push channel on the calendar's events; the provider says when it expires. */
  watch(calendarId: string, channel: ChannelRequest): Promise<{ resourceId: string; expiresAt: Date }>;
  stopWatching(id: string, resourceId: string): Promise<void>;
}
