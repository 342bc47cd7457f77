// The calendar port: what a calendar provider (Google Calendar, CalDAV, Outlook through the teams service, a
// test's in-memory one) does, in the domain's words. No provider's shape crosses it: an event is the spec's
// normalised event (section 3), stamped with the provider's name by the registry.
import type { CalendarEvent, EventBody } from '@asistente/contracts';
import type { Range } from '../dates.js';
import type { JsonView } from '../view-cache.js';

/**
 * A provider's name, as the events it answers carry it in `source` ('google', 'caldav', 'msteams' for the
 * built-in ones, the contracts' list). Open, so that one registration adds a provider.
 */
export type CalendarProviderName = string;

/** The normalised event as a provider answers it: the registry adds `source`. */
export type ProviderEvent = Omit<CalendarEvent, 'source'>;

/** The normalised event as the registry answers it: whose it is, by the provider's name. */
export type AgendaEvent = ProviderEvent & { source: CalendarProviderName };

/** One of the user's calendars at a provider. */
export interface CalendarEntry {
  id: string;
  name: string;
  primary: boolean;
}

/** An event just written, with the links the provider gave it (the writing screen offers them). */
export interface WrittenEvent {
  event: ProviderEvent;
  /** The video conference the provider attached to the event itself (Google Meet), if any. */
  conferenceLink: string | null;
  /** The event on the provider's own site, if it has one. */
  webLink: string | null;
}

/** A stretch of time an event takes (epoch ms): what free slots avoid. */
export interface BusyTime {
  start: number;
  end: number;
}

/**
 * One calendar provider. Failures are AppErrors in Spanish (not connected, refused, unreachable), never a 500.
 * Adding one is this interface's implementation and one registration (app.ts, or the service's
 * `calendarProviders` option); the registry dispatches calendar ids, merges the agenda and the busy time.
 */
export interface CalendarPort {
  readonly name: CalendarProviderName;
  /**
   * Whether the user may have this provider connected: only connected ones are asked for the agenda. (The
   * first provider registered is asked for the agenda whatever this says: it says what to connect.)
   */
  connected(userId: string): Promise<boolean>;
  /**
   * Whether the user surely has it connected (the providers list, where a new event without a calendar goes);
   * `connected` when absent.
   */
  confirmed?(userId: string): Promise<boolean>;
  /** The user's calendars at this provider. */
  calendars(userId: string): Promise<CalendarEntry[]>;
  /** Whether the calendar id is one of this user's calendars here (the registry's 404 when none says so). */
  owns(userId: string, calendarId: string): Promise<boolean>;
  /** Events overlapping the range (all-day ends inclusive), of one calendar or of all the user's. */
  events(userId: string, range: Range, force: boolean, calendarId?: string): Promise<ProviderEvent[]>;
  /**
   * The same as a ready JSON view of `CalendarEvent`s, when the provider keeps one (Google's mirror aggregates
   * and caches it): used as is when this is the only provider to ask.
   */
  view?(userId: string, range: Range, force: boolean, calendarId?: string): Promise<JsonView>;
  /** The time the user's own calendars here take in the range (opaque, not cancelled events): free/busy. */
  busy(userId: string, range: Range): Promise<BusyTime[]>;
  /** Without `calendarId`, in this provider's default calendar. */
  create(userId: string, calendarId: string | undefined, body: EventBody): Promise<WrittenEvent>;
  update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<WrittenEvent>;
  delete(userId: string, calendarId: string, eventId: string): Promise<void>;
  /**
   * Errors that only say "this user has no usable calendar here" (not configured, not connected): the
   * merged agenda leaves the provider out instead of failing.
   */
  readonly absentCodes?: ReadonlySet<string>;
  /**
   * Present when a failure of this provider must not sink the merged agenda (one reached through a sibling
   * service): the agenda leaves it out and this reports why. Asked alone, its errors are the answer.
   */
  readonly bestEffort?: (error: unknown) => void;
}
