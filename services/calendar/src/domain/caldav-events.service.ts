import { randomUUID } from 'node:crypto';
import { EVENT_TITLE_MAX, type CalendarEvent, type EventBody, type GoogleEvent } from '@asistente/contracts';
import { badRequest, createEvent, type Logger, type Outbox, type Sql } from '@asistente/kit';
import type { CaldavSession } from './caldav-port.js';
import type { CaldavConnectionService } from './caldav-connection.service.js';
import { caldavAppError } from './caldav-errors.js';
import type { CaldavRepository, StoredCalendar } from './caldav.repository.js';
import type { Range } from './dates.js';
import { eventInput } from './event-form.js';
import type { EventRecord } from './event-record.js';
import { changeObject, expandObject, indexObject, newObject, splitEventId, withoutOccurrence } from './icalendar.js';
import { toCalendarEvent, toGoogleEvent } from './normalize.js';
import { eventNotFound } from './provider-errors.js';

/** A mirror older than this asks the server what changed before answering (as Google's does). */
const FRESHNESS_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Events of the user's CalDAV calendars. The mirror keeps each calendar object as the server has it (with
 * its etag) and is brought up to date incrementally; reads expand series within the range asked; writes go
 * to the server first (with If-Match), then to the mirror with their domain event in one transaction.
 */
export class CaldavEventsService {
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly sql: Sql,
    private readonly connection: CaldavConnectionService,
    private readonly repository: CaldavRepository,
    private readonly outbox: Outbox,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The account's calendars, re-read from the server when `refresh`. */
  async calendars(userId: string, refresh = false): Promise<StoredCalendar[]> {
    if (refresh) {
      const session = await this.connection.session(userId);
      const listed = await session.listCalendars().catch((e: unknown) => Promise.reject(caldavAppError(e)));
      await this.repository.replaceCalendars(userId, listed);
    }
    return this.repository.calendars(userId);
  }

  /** Whether the id names one of the user's CalDAV calendars (CalDAV ids are the collections' URLs). */
  async owns(userId: string, calendarId: string): Promise<boolean> {
    return (await this.repository.calendars(userId)).some((c) => c.id === calendarId);
  }

  /**
   * The normalised events overlapping the range, in every calendar or in one, from the mirror: synced first
   * when forced or never synced, in the background when older than a minute.
   */
  async events(userId: string, range: Range, force: boolean, calendarId?: string): Promise<CalendarEvent[]> {
    return (await this.records(userId, range, force, calendarId)).map(toCaldavEvent);
  }

  /** The events overlapping the range as the mirror's records (series expanded), by start. */
  async records(userId: string, range: Range, force: boolean, calendarId?: string): Promise<EventRecord[]> {
    const calendars = (await this.repository.calendars(userId)).filter((c) => !calendarId || c.id === calendarId);
    if (calendars.length === 0) return [];
    const stale = calendars.filter((c) => force || !c.syncedAt || this.now() - c.syncedAt.getTime() > FRESHNESS_MS);
    if (stale.length > 0) {
      const session = await this.connection.session(userId);
      // Forced or never mirrored: the view waits for the server. Merely stale: the mirror answers now and
      // catches up in the background (a failure there is only logged), as Google's views do.
      const waited = stale.filter((c) => force || !c.syncedAt);
      for (const c of stale.filter((c) => !waited.includes(c))) {
        this.sync(userId, session, c).catch((error: unknown) =>
          this.log.warn({ err: error instanceof Error ? error.message : error }, 'background caldav refresh failed'),
        );
      }
      await Promise.all(waited.map((c) => this.sync(userId, session, c).catch((error: unknown) => Promise.reject(caldavAppError(error)))));
    }
    const objects = await this.repository.objectsInRange(userId, calendars.map((c) => c.id), range.from, range.to);
    return objects
      .flatMap((o) => this.expand(o.ics, o.calendarId, range))
      .sort((a, b) => a.startAt.getTime() - b.startAt.getTime() || a.id.localeCompare(b.id));
  }

  async create(userId: string, calendarId: string, body: EventBody): Promise<GoogleEvent> {
    const input = eventInput(body);
    const session = await this.connection.session(userId);
    const uid = randomUUID();
    const ics = newObject(uid, input);
    const written = await session.create(calendarId, uid, ics).catch((e: unknown) => Promise.reject(caldavAppError(e)));
    const event = this.single(ics, calendarId, input.startTime, input.endTime);
    await this.record(userId, calendarId, { ...written, ics }, event, 'calendar.event.created');
    return toCaldavScreenEvent(event);
  }

  /** Changes the event (a series as a whole; one occurrence alone is edited in the user's calendar app). */
  async update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<GoogleEvent> {
    const input = eventInput(body);
    const { uid, occurrence } = splitEventId(eventId);
    if (occurrence !== null) throw badRequest('Para cambiar una sola repetición, edítala en tu aplicación de calendario; aquí se edita la serie completa', 'CALDAV_OCCURRENCE');
    const stored = await this.repository.objectByUid(userId, calendarId, uid);
    if (!stored) throw eventNotFound();
    const session = await this.connection.session(userId);
    const ics = changeObject(stored.ics, input);
    const etag = await session.update(stored.href, ics, stored.etag).catch((e: unknown) => Promise.reject(caldavAppError(e)));
    const event = this.single(ics, calendarId, input.startTime, input.endTime);
    await this.record(userId, calendarId, { href: stored.href, etag, ics }, event, 'calendar.event.updated');
    return toCaldavScreenEvent(event);
  }

  /** Removes the event; an occurrence of a series is removed from the series (EXDATE), the rest stays. */
  async delete(userId: string, calendarId: string, eventId: string): Promise<void> {
    const { uid, occurrence } = splitEventId(eventId);
    const stored = (await this.repository.objectByUid(userId, calendarId, eventId)) ?? (occurrence ? await this.repository.objectByUid(userId, calendarId, uid) : undefined);
    if (!stored) throw eventNotFound();
    const session = await this.connection.session(userId);
    const wholeObject = stored.uid === eventId || occurrence === null;
    let kept: { ics: string; etag: string | null } | undefined;
    if (wholeObject) await session.remove(stored.href, stored.etag).catch((e: unknown) => Promise.reject(caldavAppError(e)));
    else {
      const ics = withoutOccurrence(stored.ics, occurrence);
      kept = { ics, etag: await session.update(stored.href, ics, stored.etag).catch((e: unknown) => Promise.reject(caldavAppError(e))) };
    }
    await this.sql.begin(async (tx) => {
      if (kept) await this.repository.saveObject(tx, userId, calendarId, { href: stored.href, ...kept }, indexObject(kept.ics)!);
      else await this.repository.removeObject(tx, userId, calendarId, stored.href);
      await this.outbox.append(tx, [createEvent('calendar.event.deleted', userId, { eventId, source: 'caldav' })]);
    });
  }

  /** One sync of one calendar; concurrent requests for it share the call. */
  private sync(userId: string, session: CaldavSession, calendar: StoredCalendar): Promise<void> {
    const key = `${userId}:${calendar.id}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const work = (async () => {
      const etags = await this.repository.etags(userId, calendar.id);
      const changes = await session.changes(calendar, { ctag: calendar.ctag, syncToken: calendar.syncToken, etags });
      const upserts = changes.upserts.flatMap((o) => {
        const index = safeIndex(o.ics);
        return index ? [{ ...o, index }] : [];
      });
      await this.repository.applyChanges(userId, calendar.id, { ...changes, upserts });
    })().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  /** A calendar object another app wrote badly is left out of the view, not a failed screen. */
  private expand(ics: string, calendarId: string, range: Range): EventRecord[] {
    try {
      return expandObject(ics, calendarId, range.from, range.to);
    } catch (error) {
      this.log.warn({ err: error instanceof Error ? error.message : error, calendarId }, 'unreadable caldav object skipped');
      return [];
    }
  }

  /** The event just written, as the mirror will read it. */
  private single(ics: string, calendarId: string, start: Date, end: Date): EventRecord {
    const [event] = expandObject(ics, calendarId, new Date(start.getTime() - DAY_MS), new Date(end.getTime() + DAY_MS));
    if (!event) throw eventNotFound();
    return event;
  }

  private async record(
    userId: string,
    calendarId: string,
    object: { href: string; etag: string | null; ics: string },
    event: EventRecord,
    type: 'calendar.event.created' | 'calendar.event.updated',
  ): Promise<void> {
    const index = indexObject(object.ics);
    if (!index) throw eventNotFound();
    await this.sql.begin(async (tx) => {
      await this.repository.saveObject(tx, userId, calendarId, object, index);
      await this.outbox.append(tx, [createEvent(type, userId, { eventId: event.id, source: 'caldav', title: (event.summary ?? '').slice(0, EVENT_TITLE_MAX) })]);
    });
  }
}

function safeIndex(ics: string) {
  try {
    return indexObject(ics);
  } catch {
    return undefined;
  }
}

export const toCaldavEvent = (record: EventRecord): CalendarEvent => ({ ...toCalendarEvent(record), source: 'caldav' });
const toCaldavScreenEvent = (record: EventRecord): GoogleEvent => ({ ...toGoogleEvent(record), source: 'caldav' });
