import { calendarRoutes, ErrorResponse } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import { parseRange } from '../domain/dates.js';
import type { CalendarRegistry } from '../domain/calendars/calendar-registry.js';
import { DEFAULT_WORKING_HOURS, freeSlots } from '../domain/free-slots.js';
import { sendJsonView, sendProviderJson } from './json-text.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };
/** Free slots are asked for the coming days or weeks, not a year. */
const MAX_SLOT_RANGE_DAYS = 62;


interface AgendaDeps {
  /** Every provider's calendars (the agenda lists them all, free slots avoid all their busy time). */
  sources: CalendarRegistry;
}

/** The user's agenda across calendars and their free time (the assistant books meetings from these). */
export async function agendaRoutes(app: App, { sources }: AgendaDeps): Promise<void> {
  describedRoute(app, calendarRoutes.events, {
    summary: 'Lista los eventos de todos los calendarios en un intervalo',
    errors,
    handler: async (request, reply) => {
      const { dateFrom, dateTo, calendarId, refresh, source } = request.query;
      const range = parseRange(dateFrom, dateTo);
      return sendJsonView(request, reply, await sources.range(request.user.id, range, refresh === true, calendarId, source));
    },
  });

  // One customer's meetings (the assistant answering that customer sees these, never the whole agenda).
  describedRoute(app, calendarRoutes.withAttendee, {
    summary: 'Lista los eventos con un asistente',
    errors,
    // Every connected provider's (Google, CalDAV's ATTENDEE lines, Outlook's attendees), from the registry.
    handler: async (request, reply) => {
      const { dateFrom, dateTo, attendee } = request.query;
      return sendProviderJson(reply, await sources.withAttendee(request.user.id, parseRange(dateFrom, dateTo), attendee));
    },
  });

  // What the assistant asks before offering calendar tools: any provider will do.
  describedRoute(app, calendarRoutes.providers, {
    summary: 'Indica qué proveedores de calendario tiene conectados el usuario',
    errors,
    handler: async (request, reply) => {
      const providers = await sources.connected(request.user.id);
      return sendProviderJson(reply, { connected: providers.length > 0, providers: providers.map((source) => ({ source })) });
    },
  });

  describedRoute(app, calendarRoutes.freeSlots, {
    summary: 'Busca huecos libres en la agenda',
    errors,
    handler: async (request) => {
      const { dateFrom, dateTo, durationMinutes, workStart, workEnd, timeZone } = request.query;
      const range = parseRange(dateFrom, dateTo, MAX_SLOT_RANGE_DAYS);
      const hours = {
        ...DEFAULT_WORKING_HOURS,
        ...(workStart ? { start: workStart } : {}),
        ...(workEnd ? { end: workEnd } : {}),
        ...(timeZone ? { timeZone } : {}),
      };
      // Merged in the domain: every connected provider's busy time (Google, CalDAV, Outlook) from the registry.
      const busy = await sources.busy(request.user.id, range);
      return freeSlots(busy, range.from.getTime(), range.to.getTime(), durationMinutes, hours, Date.now()).map((s) => ({
        start: new Date(s.start).toISOString(),
        end: new Date(s.end).toISOString(),
      }));
    },
  });
}
