import { EVENT_TITLE_MAX, type MicrosoftCalendarEvent, type MicrosoftEventBody } from '@asistente/contracts';
import { checkEventForm, createEvent, type Outbox, type Sql } from '@asistente/kit';
import { toCalendarEvent } from './calendar-event.js';
import type { ConnectionService } from './connection.service.js';
import type { MicrosoftGraph } from './microsoft-graph.js';
import { viaGraph } from './graph-errors.js';

const NOT_FOUND = { notFound: 'El evento ya no existe en ese calendario de Outlook.' };

/**
 * Outlook events written from Calendario (through the calendar service's provider-neutral /events, or the
 * spec's teams paths): Graph first, then the domain event through the outbox, as every provider's writes.
 * Graph's token is the user's own, so another user's event is Graph's 404.
 */
export class CalendarWritesService {
  constructor(
    private readonly sql: Sql,
    private readonly connection: ConnectionService,
    private readonly outbox: Outbox,
  ) {}

  async create(userId: string, body: MicrosoftEventBody): Promise<MicrosoftCalendarEvent> {
    const { calendarId: chosen, ...form } = body;
    const write = checkEventForm(form);
    const { graph } = await this.connection.graphFor(userId);
    const calendarId = chosen ?? (await defaultCalendarId(graph));
    const created = toCalendarEvent(await viaGraph(() => graph.createCalendarEvent(calendarId, write), { notFound: 'El calendario ya no existe en Outlook.' }), calendarId);
    await this.record(userId, 'calendar.event.created', created);
    return created;
  }

  async update(userId: string, eventId: string, body: MicrosoftEventBody): Promise<MicrosoftCalendarEvent> {
    const { calendarId: chosen, ...form } = body;
    const write = checkEventForm(form);
    const { graph } = await this.connection.graphFor(userId);
    const calendarId = chosen ?? (await defaultCalendarId(graph));
    const updated = toCalendarEvent(await viaGraph(() => graph.updateCalendarEvent(calendarId, eventId, write), NOT_FOUND), calendarId);
    await this.record(userId, 'calendar.event.updated', updated);
    return updated;
  }

  async delete(userId: string, eventId: string, calendarId = 'primary'): Promise<void> {
    const { graph } = await this.connection.graphFor(userId);
    await viaGraph(() => graph.deleteCalendarEvent(calendarId, eventId), NOT_FOUND);
    await this.sql.begin((tx) => this.outbox.append(tx, [createEvent('calendar.event.deleted', userId, { eventId, source: 'msteams' as const })]));
  }

  private async record(userId: string, type: 'calendar.event.created' | 'calendar.event.updated', event: MicrosoftCalendarEvent): Promise<void> {
    const data = { eventId: event.id, source: 'msteams' as const, title: event.title.slice(0, EVENT_TITLE_MAX) };
    await this.sql.begin((tx) => this.outbox.append(tx, [createEvent(type, userId, data)]));
  }
}

/**
 * The default calendar's own id, so the answer names the calendar the event is in (a later change through
 * the calendar service's /events finds it by that id), not 'primary'.
 */
async function defaultCalendarId(graph: MicrosoftGraph): Promise<string> {
  return (await viaGraph(() => graph.defaultCalendar())).id || 'primary';
}
