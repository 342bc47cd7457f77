import { randomUUID } from 'node:crypto';
import type { EventBody } from '@asistente/contracts';
import { AppError } from '@asistente/kit';
import type { BusyTime, CalendarEntry, CalendarPort, ProviderEvent, WrittenEvent } from '../../src/domain/calendars/calendar-port.js';
import type { Range } from '../../src/domain/dates.js';
import { eventInput } from '../../src/domain/event-form.js';

const notFound = () => new AppError(404, 'EVENT_NOT_FOUND', 'Evento no encontrado');

/** A calendar provider kept in memory: what a new provider implements, and nothing more. One calendar per member. */
export class InMemoryCalendar implements CalendarPort {
  readonly name = 'memoria';
  /** Events by calendar id. */
  private readonly calendarsOf = new Map<string, Map<string, ProviderEvent>>();

  /** Connects the member: their one calendar's id. */
  connect(userId: string): string {
    const id = `memoria:${userId}`;
    this.calendarsOf.set(id, new Map());
    return id;
  }

  async connected(userId: string): Promise<boolean> {
    return this.calendarsOf.has(`memoria:${userId}`);
  }

  async calendars(userId: string): Promise<CalendarEntry[]> {
    return (await this.connected(userId)) ? [{ id: `memoria:${userId}`, name: 'Memoria', primary: true }] : [];
  }

  async owns(userId: string, calendarId: string): Promise<boolean> {
    return calendarId === `memoria:${userId}` && this.calendarsOf.has(calendarId);
  }

  async events(userId: string, range: Range): Promise<ProviderEvent[]> {
    const inRange = (e: ProviderEvent) => Date.parse(e.startTime) < range.to.getTime() && Date.parse(e.endTime) > range.from.getTime();
    return [...(this.calendarsOf.get(`memoria:${userId}`)?.values() ?? [])].filter(inRange);
  }

  async busy(userId: string, range: Range): Promise<BusyTime[]> {
    return (await this.events(userId, range)).map((e) => ({ start: Date.parse(e.startTime), end: Date.parse(e.endTime) }));
  }

  async create(userId: string, calendarId: string | undefined, body: EventBody): Promise<WrittenEvent> {
    return this.write(userId, calendarId ?? `memoria:${userId}`, randomUUID(), body, null);
  }

  async update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<WrittenEvent> {
    const before = this.calendar(userId, calendarId).get(eventId);
    if (!before) throw notFound();
    return this.write(userId, calendarId, eventId, body, before.createdAt);
  }

  async delete(userId: string, calendarId: string, eventId: string): Promise<void> {
    if (!this.calendar(userId, calendarId).delete(eventId)) throw notFound();
  }

  private calendar(userId: string, calendarId: string): Map<string, ProviderEvent> {
    const calendar = calendarId === `memoria:${userId}` ? this.calendarsOf.get(calendarId) : undefined;
    if (!calendar) throw new AppError(404, 'CALENDAR_NOT_FOUND', 'Calendario no encontrado');
    return calendar;
  }

  /** Timed events only: enough for the port's checks. */
  private write(userId: string, calendarId: string, id: string, body: EventBody, createdAt: string | null): WrittenEvent {
    const input = eventInput(body);
    const now = new Date().toISOString();
    const [start, end] = [input.startTime.toISOString(), input.endTime.toISOString()];
    const event: ProviderEvent = {
      id, title: input.title, description: input.description ?? '', startDate: start, endDate: end, startTime: start, endTime: end,
      location: input.location ?? '', attendees: [], type: 'meeting', status: 'confirmed', createdAt: createdAt ?? now, updatedAt: now,
      isRecurring: false, recurrencePattern: null, allDay: false, calendarId,
    };
    this.calendar(userId, calendarId).set(id, event);
    return { event, conferenceLink: null, webLink: null };
  }
}
