import { randomUUID } from 'node:crypto';
import { type CalendarEvent, type EventBody } from '@asistente/contracts';
import { CoalescedRead, createEvent, type EventEnvelope, type Logger, type Outbox, type Sql, type TransactionSql } from '@asistente/kit';
import type { CaldavConnectionService } from './connection.service.js';
import { caldavAppError, makeCalendarError } from './errors.js';
import { CaldavError, type CaldavSession } from './session.js';
import { foreignChanges, type KnownObject } from '../../../domain/caldav-changes.js';
import type { CaldavRepository, StoredCalendar } from '../../../domain/caldav.repository.js';
import type { Range } from '../../../domain/dates.js';
import { eventInput } from '../../../domain/event-form.js';
import { eventChanged, type EventRecord } from '../../../domain/event-record.js';
import { changeObject, expandObject, indexObject, newObject, splitEventId } from '../../../domain/icalendar.js';
import { overrideOccurrence, withoutOccurrence } from '../../../domain/icalendar-occurrence.js';
import { toCalendarEvent } from '../../../domain/normalize.js';
import type { WrittenEvent } from '../../../domain/calendars/calendar-port.js';
import { eventNotFound } from '../../../domain/provider-errors.js';

/** A mirror older than this asks the server what changed before answering (as Google's does). */
const FRESHNESS_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Events of the user's CalDAV calendars. The mirror keeps each calendar object as the server has it (with
 * its etag) and is brought up to date incrementally; reads expand series within the range asked; writes go
 * to the server first (with If-Match), then to the mirror with their domain event in one transaction.
 */
export class CaldavEventsService {
  private readonly runs = new CoalescedRead<void>();

  constructor(
    private readonly sql: Sql,
    private readonly connection: CaldavConnectionService,
    private readonly repository: CaldavRepository,
    private readonly outbox: Outbox,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The account's calendars, re-read from the server when `refresh` (or, as in every sync pass, when stale). */
  async calendars(userId: string, refresh = false): Promise<StoredCalendar[]> {
    await this.discover(userId, refresh);
    return this.repository.calendars(userId);
  }

  /** Makes a calendar on the server and lists the account's calendars again: the new one, as the mirror keeps it. */
  async createCalendar(userId: string, name: string): Promise<StoredCalendar> {
    const session = await this.connection.session(userId);
    const id = await session.makeCalendar(name.trim()).catch((e: unknown) => Promise.reject(makeCalendarError(e)));
    const listed = await session.listCalendars().catch((e: unknown) => Promise.reject(caldavAppError(e)));
    await this.repository.replaceCalendars(userId, listed);
    const created = (await this.repository.calendars(userId)).find((c) => c.id === id);
    // Made, yet not listed as an event calendar: the server did not keep what it was asked for.
    if (!created) throw makeCalendarError(new CaldavError('invalid', 'the new calendar is not listed'));
    return created;
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
    await this.discover(userId, force);
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

  async create(userId: string, calendarId: string, body: EventBody): Promise<WrittenEvent> {
    const input = eventInput(body);
    const session = await this.connection.session(userId);
    const uid = randomUUID();
    const ics = newObject(uid, input);
    const created = await session.create(calendarId, uid, ics).catch((e: unknown) => Promise.reject(caldavAppError(e)));
    const event = this.written(ics, calendarId, null, input.startTime, input.endTime);
    await this.record(userId, calendarId, { ...created, ics }, event, 'calendar.event.created');
    return writtenAnswer(event);
  }

  /**
   * Changes the event. As with Google's instances, the id says what: a series' own id (its UID) changes the
   * series as a whole; an occurrence's id (UID_originalStart, as listed) changes that occurrence alone, with an
   * override (RECURRENCE-ID) in the same calendar object. Either way one PUT with If-Match on its etag.
   */
  async update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<WrittenEvent> {
    const input = eventInput(body);
    const { stored, occurrence } = await this.target(userId, calendarId, eventId);
    const ics = occurrence === null ? changeObject(stored.ics, input) : overrideOccurrence(stored.ics, occurrence, input);
    if (ics === undefined) throw eventNotFound();
    const session = await this.connection.session(userId);
    const etag = await session.update(stored.href, ics, stored.etag).catch((e: unknown) => Promise.reject(caldavAppError(e)));
    const event = this.written(ics, calendarId, occurrence === null ? null : eventId, input.startTime, input.endTime);
    await this.record(userId, calendarId, { href: stored.href, etag, ics }, event, 'calendar.event.updated');
    return writtenAnswer(event);
  }

  /** Removes the event; an occurrence of a series is removed from the series (EXDATE, its override dropped), the rest stays. */
  async delete(userId: string, calendarId: string, eventId: string): Promise<void> {
    const { stored, occurrence } = await this.target(userId, calendarId, eventId);
    const session = await this.connection.session(userId);
    let kept: { ics: string; etag: string | null } | undefined;
    if (occurrence === null) await session.remove(stored.href, stored.etag).catch((e: unknown) => Promise.reject(caldavAppError(e)));
    else {
      const ics = withoutOccurrence(stored.ics, occurrence);
      if (ics === undefined) throw eventNotFound();
      kept = { ics, etag: await session.update(stored.href, ics, stored.etag).catch((e: unknown) => Promise.reject(caldavAppError(e))) };
    }
    await this.sql.begin(async (tx) => {
      await this.repository.lockCalendar(tx, userId, calendarId);
      if (kept) await this.repository.saveObject(tx, userId, calendarId, { href: stored.href, ...kept }, indexObject(kept.ics)!);
      // Gone already: a sync found it missing on the server and told the deletion.
      else if (!(await this.repository.removeObject(tx, userId, calendarId, stored.href))) return;
      await this.outbox.append(tx, [createEvent('calendar.event.deleted', userId, { eventId, source: 'caldav' })]);
    });
  }

  /**
   * The calendar object an event id names and, for an occurrence's id, which occurrence. An object whose own
   * UID merely looks like an occurrence's id (another app's choice) is that object, whole.
   */
  private async target(userId: string, calendarId: string, eventId: string) {
    const whole = await this.repository.objectByUid(userId, calendarId, eventId);
    if (whole) return { stored: whole, occurrence: null };
    const { uid, occurrence } = splitEventId(eventId);
    const stored = occurrence === null ? undefined : await this.repository.objectByUid(userId, calendarId, uid);
    if (!stored) throw eventNotFound();
    return { stored, occurrence };
  }

  /**
   * The first step of every sync pass: the server's calendar list, so calendars made or removed there come
   * and go. Asked when forced or older than a minute: waited for when forced or when the mirror has no
   * calendar (there is nothing else to answer with), in the background otherwise. Only a forced one fails
   * the view; otherwise a server that does not answer leaves the mirror as it is (logged).
   */
  private async discover(userId: string, force: boolean): Promise<void> {
    const listedAt = await this.repository.calendarsListedAt(userId);
    if (listedAt === undefined || (!force && listedAt !== null && this.now() - listedAt.getTime() <= FRESHNESS_MS)) return;
    // A forced pass ("Actualizar") needs a list read begun after it asked: a running one may predate the change.
    const listing = this.runs[force ? 'read' : 'share'](`list:${userId}`, async () => {
      const session = await this.connection.session(userId);
      await this.repository.replaceCalendars(userId, await session.listCalendars());
    });
    const failed = (error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : error }, 'caldav calendar list failed');
    if (force) await listing.catch((e: unknown) => Promise.reject(caldavAppError(e)));
    else if ((await this.repository.calendars(userId)).length === 0) await listing.catch(failed);
    else listing.catch(failed);
  }

  /** One sync of one calendar. */
  private sync(userId: string, session: CaldavSession, calendar: StoredCalendar): Promise<void> {
    return this.runs.share(`${userId}:${calendar.id}`, async () => {
      const etags = await this.repository.etags(userId, calendar.id);
      const changes = await session.changes(calendar, { ctag: calendar.ctag, syncToken: calendar.syncToken, etags });
      const upserts = changes.upserts.flatMap((o) => {
        const index = safeIndex(o.ics);
        return index ? [{ ...o, index }] : [];
      });
      // Another app's changes go out as the product's own writes do; the first sync of a calendar is no change.
      const told = calendar.syncedAt === null ? undefined : (tx: TransactionSql, before: Map<string, KnownObject>) => this.tell(tx, foreignChanges(userId, calendar.id, before, changes));
      await this.repository.applyChanges(userId, calendar.id, { ...changes, upserts }, told);
    });
  }

  private async tell(tx: TransactionSql, events: EventEnvelope[]): Promise<void> {
    if (events.length > 0) await this.outbox.append(tx, events);
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

  /**
   * The event just written, as the mirror will read it: the occurrence `id`, or the object's event starting
   * when the form said (a series' first occurrence, not an override that happens to lie near it).
   */
  private written(ics: string, calendarId: string, id: string | null, start: Date, end: Date): EventRecord {
    const near = expandObject(ics, calendarId, new Date(start.getTime() - DAY_MS), new Date(end.getTime() + DAY_MS));
    const event = id === null ? (near.find((e) => e.startAt.getTime() === start.getTime()) ?? near[0]) : near.find((e) => e.id === id);
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
      await this.repository.lockCalendar(tx, userId, calendarId);
      // A sync that ran between the server's answer and now stored this very version and told it already.
      const told = object.etag !== null && (await this.repository.storedEtag(tx, userId, calendarId, object.href)) === object.etag;
      await this.repository.saveObject(tx, userId, calendarId, object, index);
      if (told) return;
      await this.outbox.append(tx, [eventChanged(type, userId, 'caldav', event)]);
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
/** An event just written: CalDAV servers give no conference or web link of their own. */
const writtenAnswer = (record: EventRecord): WrittenEvent => ({ event: toCaldavEvent(record), conferenceLink: null, webLink: null });
