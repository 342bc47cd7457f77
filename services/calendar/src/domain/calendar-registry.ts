import { AppError } from '@asistente/kit';
import type { CalendarEvent, EventBody, GoogleEvent } from '@asistente/contracts';
import type { Range } from './dates.js';
import { jsonView, type JsonView } from './view-cache.js';

/** What an event says it came from (CalendarEvent.source). */
export type CalendarSourceName = CalendarEvent['source'];

/** A stretch of time an event takes (epoch ms): what free slots avoid. */
export interface BusyTime {
  start: number;
  end: number;
}

/**
 * One calendar provider as the provider-neutral routes (/events) see it. A provider is its adapter (the
 * outside world, behind its port) plus one of these, registered in app.ts; the registry does the rest:
 * dispatching a calendar id to its provider, merging the agenda, stamping `source`.
 */
export interface CalendarSource {
  readonly source: CalendarSourceName;
  /**
   * Whether the user may have this provider connected: only connected ones are asked for the agenda. (The
   * fallback is asked for the agenda whatever this says.)
   */
  connected(userId: string): Promise<boolean>;
  /**
   * Whether the user surely has it connected (the providers list, where a new event without a calendar goes);
   * `connected` when absent.
   */
  confirmed?(userId: string): Promise<boolean>;
  /** Whether the calendar id is one of this user's calendars at this provider. */
  owns(userId: string, calendarId: string): Promise<boolean>;
  /** Normalised events overlapping the range (end dates already inclusive for all-day ones). */
  events(userId: string, range: Range, force: boolean, calendarId?: string): Promise<CalendarEvent[]>;
  /**
   * The same as a ready JSON view, when the provider keeps one (Google's mirror aggregates and caches it):
   * used as is when this is the only provider to ask.
   */
  view?(userId: string, range: Range, force: boolean, calendarId?: string): Promise<JsonView>;
  /** The time the user's own calendars here take in the range (opaque, not cancelled events). */
  busy(userId: string, range: Range): Promise<BusyTime[]>;
  /** Without `calendarId`, in this provider's default calendar. */
  create(userId: string, calendarId: string | undefined, body: EventBody): Promise<GoogleEvent>;
  update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<GoogleEvent>;
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

/** An error that only says "this user has no usable calendar here" (see absentCodes). */
const isAbsent = (source: CalendarSource, error: unknown) => error instanceof AppError && source.absentCodes?.has(error.code) === true;

const startOf = (e: CalendarEvent) => Date.parse(e.startDate.length === 10 ? `${e.startDate}T00:00:00Z` : e.startDate);

/**
 * The registered providers, in order; the first is the fallback owner of calendar ids no other provider
 * claims ('primary' and Google's ids, exactly as before CalDAV), so its answers (404, "connect Google")
 * are unchanged for a user who connected nothing else.
 */
export class CalendarRegistry {
  private readonly sources: readonly CalendarSource[];

  constructor(fallback: CalendarSource, ...others: CalendarSource[]) {
    this.sources = [fallback, ...others];
  }

  /** The events of the range: of one calendar, of one provider (`only`), or merged across the connected ones. */
  async range(userId: string, range: Range, force: boolean, calendarId?: string, only?: CalendarSourceName): Promise<JsonView> {
    const named = only === undefined ? undefined : this.sources.find((s) => s.source === only);
    if (only !== undefined && !named) return jsonView('[]');
    if (named || calendarId) {
      const owner = named ?? (await this.owner(userId, calendarId!));
      return owner.view ? owner.view(userId, range, force, calendarId) : this.json(owner, await owner.events(userId, range, force, calendarId));
    }
    const fallback = this.sources[0]!;
    const others = await this.connectedOthers(userId);
    // Nothing else connected: the fallback's own answer, errors and cached view included.
    if (others.length === 0) return fallback.view ? fallback.view(userId, range, force) : this.json(fallback, await fallback.events(userId, range, force));
    const lists = await this.across(fallback, others, async (s) => (await s.events(userId, range, force)).map((e) => ({ ...e, source: s.source })));
    return jsonView(JSON.stringify(lists.flat().sort((a, b) => startOf(a) - startOf(b) || a.id.localeCompare(b.id))));
  }

  /** Busy times across the providers (free slots): as `range`, the fallback alone unless others are connected. */
  async busy(userId: string, range: Range): Promise<BusyTime[]> {
    const lists = await this.acrossConnected(userId, (s) => s.busy(userId, range));
    return lists.flat();
  }

  /** The providers the user surely has connected, in order. */
  async providers(userId: string): Promise<CalendarSourceName[]> {
    const confirmed = await Promise.all(this.sources.map((s) => (s.confirmed ?? s.connected).call(s, userId)));
    return this.sources.filter((_, i) => confirmed[i]).map((s) => s.source);
  }

  /** The events of the range, of every connected provider, that list exactly this address among their attendees. */
  async withAttendee(userId: string, range: Range, attendee: string): Promise<CalendarEvent[]> {
    const address = attendee.trim().toLowerCase();
    const lists = await this.acrossConnected(userId, async (s) =>
      (await s.events(userId, range, false))
        .filter((e) => e.attendees.some((a) => a.trim().toLowerCase() === address))
        .map((e) => ({ ...e, source: s.source })),
    );
    return lists.flat().sort((a, b) => startOf(a) - startOf(b) || a.id.localeCompare(b.id));
  }

  /**
   * A new event in the calendar named, or without one in the default calendar of the first provider the user
   * has connected (Google's 'primary' when Google is, exactly as before CalDAV). One that turns out absent
   * (teams not there) passes to the next; with none connected, the fallback says what to connect.
   */
  async create(userId: string, calendarId: string | undefined, body: EventBody): Promise<GoogleEvent> {
    if (calendarId !== undefined) return (await this.owner(userId, calendarId)).create(userId, calendarId, body);
    const connected = await this.providers(userId);
    for (const source of this.sources.filter((s) => connected.includes(s.source))) {
      try {
        return await source.create(userId, undefined, body);
      } catch (error) {
        if (!isAbsent(source, error)) throw error;
      }
    }
    return this.sources[0]!.create(userId, undefined, body);
  }

  async update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<GoogleEvent> {
    return (await this.owner(userId, calendarId)).update(userId, calendarId, eventId, body);
  }

  async delete(userId: string, calendarId: string, eventId: string): Promise<void> {
    return (await this.owner(userId, calendarId)).delete(userId, calendarId, eventId);
  }

  private async connectedOthers(userId: string): Promise<CalendarSource[]> {
    const others = this.sources.slice(1);
    return (await Promise.all(others.map(async (s) => ((await s.connected(userId)) ? s : undefined)))).filter((s) => s !== undefined);
  }

  /**
   * `read` of the fallback and of every other connected provider. With others connected, a fallback that only
   * says "not connected here" counts as empty; alone, its answer (or error) is the answer.
   */
  private async acrossConnected<T>(userId: string, read: (source: CalendarSource) => Promise<T[]>): Promise<T[][]> {
    const fallback = this.sources[0]!;
    const others = await this.connectedOthers(userId);
    if (others.length === 0) return [await read(fallback)];
    return this.across(fallback, others, read);
  }

  /**
   * `read` of each provider asked. One that says it is absent (its absentCodes), or fails where it is only best
   * effort, adds nothing; any other failure is the answer. When nobody answered, the fallback's error is.
   */
  private async across<T>(fallback: CalendarSource, others: CalendarSource[], read: (source: CalendarSource) => Promise<T[]>): Promise<T[][]> {
    const asked = [fallback, ...others];
    const results = await Promise.all(asked.map((s) => read(s).then((value) => ({ value }), (error: unknown) => ({ error }))));
    const lists: T[][] = [];
    results.forEach((result, i) => {
      const source = asked[i]!;
      if ('value' in result) return lists.push(result.value);
      const absent = isAbsent(source, result.error);
      if (!absent && !source.bestEffort) throw result.error;
      if (!absent) source.bestEffort?.(result.error);
      return undefined;
    });
    const fallbackFailed = results[0]!;
    if (lists.length === 0 && 'error' in fallbackFailed) throw fallbackFailed.error;
    return lists;
  }

  /** The provider holding the calendar id; ids no other provider claims stay the fallback's. */
  private async owner(userId: string, calendarId: string): Promise<CalendarSource> {
    const [fallback, ...others] = this.sources;
    for (const source of others) if (await source.owns(userId, calendarId)) return source;
    return fallback!;
  }

  private json(source: CalendarSource, events: CalendarEvent[]): JsonView {
    return jsonView(JSON.stringify(events.map((e) => ({ ...e, source: source.source }))));
  }
}
