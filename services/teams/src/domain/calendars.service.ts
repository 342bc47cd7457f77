import type { MicrosoftCalendar, MicrosoftCalendarEvent, MicrosoftEventsQuery } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import { toCalendarEvent } from './calendar-event.js';
import type { ConnectionService } from './connection.service.js';
import { viaGraph } from './graph-errors.js';

/** Longest range one request may ask for: a year and a bit covers any month or agenda view. */
const MAX_RANGE_MS = 400 * 24 * 3600_000;

/** Current month in UTC when the caller gives no range. */
function defaultRange(now = new Date()): [Date, Date] {
  return [new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))];
}

/** Outlook calendars and their events, normalised for Calendario (source msteams). */
export class CalendarsService {
  constructor(private readonly connection: ConnectionService) {}

  async calendars(userId: string): Promise<MicrosoftCalendar[]> {
    const { graph } = await this.connection.graphFor(userId);
    const calendars = await viaGraph(() => graph.calendars());
    return calendars.map((c) => ({
      id: c.id ?? '',
      name: c.name ?? '(sin nombre)',
      color: c.hexColor || (c.color && c.color !== 'auto' ? c.color : '#0078d4'),
    }));
  }

  async events(userId: string, query: MicrosoftEventsQuery): Promise<MicrosoftCalendarEvent[]> {
    const [defaultFrom, defaultTo] = defaultRange();
    const from = query.dateFrom ? new Date(query.dateFrom) : defaultFrom;
    const to = query.dateTo ? new Date(query.dateTo) : query.dateFrom ? new Date(from.getTime() + 31 * 24 * 3600_000) : defaultTo;
    if (to.getTime() <= from.getTime()) throw badRequest('dateTo debe ser posterior a dateFrom', 'INVALID_RANGE');
    if (to.getTime() - from.getTime() > MAX_RANGE_MS) throw badRequest('El rango de fechas no puede superar 400 días', 'RANGE_TOO_LONG');
    const calendarId = query.calendarId ?? 'primary';
    const { graph } = await this.connection.graphFor(userId);
    const events = await viaGraph(() => graph.calendarView(calendarId, from, to), {
      notFound: 'El calendario ya no existe en Outlook.',
    });
    return events.map((e) => toCalendarEvent(e, calendarId));
  }
}
