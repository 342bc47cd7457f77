import { createEvent, type Outbox, type Sql } from '@asistente/kit';
import type { CalendarSyncService } from './calendar-sync.service.js';
import type { Range } from './dates.js';
import { eventChanged, type EventRecord } from './event-record.js';
import type { MirroredCalendar, MirrorRepository } from './mirror.repository.js';
import { jsonView, ViewCache, type JsonView } from './view-cache.js';

/**
 * Events of the user's Google calendars: reads answer from the mirror (refreshed when older than a minute);
 * what Google's adapter wrote there goes into the mirror with its domain event in the same transaction.
 */
export class EventsService {
  /** Views being aggregated, by cache key. */
  private readonly building = new Map<string, Promise<JsonView>>();

  constructor(
    private readonly sql: Sql,
    private readonly sync: CalendarSyncService,
    private readonly mirror: MirrorRepository,
    private readonly outbox: Outbox,
    private readonly views: ViewCache = new ViewCache(),
  ) {}

  async inCalendar(userId: string, calendarId: string, range: Range, force = false, limit?: number): Promise<EventRecord[]> {
    const calendar = await this.sync.calendar(userId, calendarId);
    await this.sync.refreshEvents(userId, calendar, force);
    return this.mirror.eventsInRange(userId, [calendar.id], range.from, range.to, limit);
  }

  /** The normalised events of one calendar, as the JSON array the database aggregates. */
  async normalized(userId: string, calendarId: string, range: Range, force = false): Promise<JsonView> {
    const calendar = await this.sync.calendar(userId, calendarId);
    const synced = await this.sync.refreshEvents(userId, calendar, force);
    return this.view(userId, [calendar], range, synced);
  }

  /** Every mirrored calendar of the user (the assistant's view of their agenda), normalised. */
  async normalizedAcrossCalendars(userId: string, range: Range, force = false): Promise<JsonView> {
    const { calendars, synced } = await this.freshCalendars(userId, force);
    return this.view(userId, calendars, range, synced);
  }

  /**
   * The aggregate, from the process's cache when the calendars' versions read for this request still name it.
   * After a sync those versions are out of date: the database answers and nothing is cached.
   */
  private async view(userId: string, calendars: MirroredCalendar[], range: Range, synced: boolean): Promise<JsonView> {
    const ids = calendars.map((c) => c.id);
    if (synced) return jsonView(await this.mirror.normalizedInRange(userId, ids, range.from, range.to));
    const key = ViewCache.key(userId, calendars, range);
    const cached = this.views.get(key);
    if (cached !== undefined) return cached;
    // Same key, same versions, same answer: the requests that miss together share one aggregate.
    const building = this.building.get(key);
    if (building) return building;
    const build = this.mirror
      .normalizedInRange(userId, ids, range.from, range.to)
      .then((json) => {
        const view = jsonView(json);
        this.views.set(key, view);
        return view;
      })
      .finally(() => this.building.delete(key));
    this.building.set(key, build);
    return build;
  }

  /** The events of the user's calendars that `only` keeps (free/busy reads them). */
  async acrossCalendars(userId: string, range: Range, force = false, only?: (c: { accessRole: string | null; primary: boolean }) => boolean): Promise<EventRecord[]> {
    const { calendars } = await this.freshCalendars(userId, force, only);
    return this.mirror.eventsInRange(userId, calendars.map((c) => c.id), range.from, range.to);
  }

  private async freshCalendars(
    userId: string,
    force: boolean,
    only?: (c: { accessRole: string | null; primary: boolean }) => boolean,
  ): Promise<{ calendars: MirroredCalendar[]; synced: boolean }> {
    const calendars = (await this.sync.calendars(userId, force)).filter((c) => !only || only(c));
    const synced = await Promise.all(calendars.map((c) => this.sync.refreshEvents(userId, c, force)));
    return { calendars, synced: synced.some(Boolean) };
  }

  /** An event the provider just wrote: into the mirror, with its domain event in the same transaction. */
  async recorded(userId: string, event: EventRecord, type: 'calendar.event.created' | 'calendar.event.updated'): Promise<void> {
    await this.sql.begin(async (tx) => {
      await this.mirror.upsertEvents(tx, userId, [event]);
      await this.outbox.append(tx, [eventChanged(type, userId, 'google', event)]);
    });
  }

  /** An event the provider just deleted: out of the mirror, with its domain event in the same transaction. */
  async removed(userId: string, calendarId: string, eventId: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      await this.mirror.deleteEvents(tx, userId, calendarId, [eventId]);
      await this.outbox.append(tx, [createEvent('calendar.event.deleted', userId, { eventId, source: 'google' })]);
    });
  }
}
