import { Type } from '@sinclair/typebox';
import {
  CalendarEvent,
  CalendarParams,
  calendarRoutes,
  ErrorResponse,
  EventIdParams,
  EventIdQuery,
  GoogleCalendarEntry,
  GoogleEvent,
  LocalEventBody,
  MonthParams,
} from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { CalendarRegistry } from '../domain/calendars/calendar-registry.js';
import type { CalendarSyncService } from '../domain/calendar-sync.service.js';
import { checkRange, parseRange } from '../domain/dates.js';
import type { EventsService } from '../domain/events.service.js';
import { toCalendarEntry } from './calendar-entry.js';
import { sendJsonView, sendProviderJson } from './json-text.js';
import { writtenAnswer } from './written-event.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };
const RangeOnly = Type.Object({
  dateFrom: Type.Optional(Type.String({ maxLength: 40 })),
  dateTo: Type.Optional(Type.String({ maxLength: 40 })),
  refresh: Type.Optional(Type.Boolean()),
});

/** The month [1st 00:00, 1st of next month) in UTC; the screen asks with its own zone's bounds through dateFrom/dateTo. */
function monthRange(year: number, month: number) {
  return checkRange(new Date(Date.UTC(year, month - 1, 1)), new Date(Date.UTC(year, month, 1)));
}

/**
 * The Calendario screen's reads and writes (spec section 7, "Calendar and events"): every read answers the
 * normalised event; the "local" source writes to the calendar named (a CalDAV one, or Google's, 'primary' unless told).
 */
export async function calendarScreenRoutes(
  app: App,
  { sync, events, sources }: { sync: CalendarSyncService; events: EventsService; sources: CalendarRegistry },
): Promise<void> {
  app.get('/google/calendars', {
    schema: { summary: 'Lista los calendarios de Google (pantalla Calendario)', querystring: Type.Object({ refresh: Type.Optional(Type.Boolean()) }), response: { 200: Type.Array(GoogleCalendarEntry), ...errors } },
    handler: async (request) => (await sync.calendars(request.user.id, request.query.refresh === true)).map(toCalendarEntry),
  });

  // The month the screen shows: dateFrom/dateTo (its own zone's month bounds), else the calendar month in UTC.
  app.get('/google/events/calendar/:calendarId', {
    schema: { summary: 'Lista los eventos de un calendario en un intervalo', params: CalendarParams, querystring: RangeOnly, response: { 200: Type.Array(CalendarEvent), ...errors } },
    handler: async (request, reply) => {
      const { dateFrom, dateTo, refresh } = request.query;
      const now = new Date();
      const range = dateFrom || dateTo
        ? parseRange(dateFrom ?? '', dateTo ?? '')
        : monthRange(now.getUTCFullYear(), now.getUTCMonth() + 1);
      return sendJsonView(request, reply, await events.normalized(request.user.id, request.params.calendarId, range, refresh === true));
    },
  });

  app.get('/google/calendar/events/:calendarId/:year/:month', {
    schema: { summary: 'Lista los eventos de un calendario en un mes', params: MonthParams, querystring: Type.Object({ refresh: Type.Optional(Type.Boolean()) }), response: { 200: Type.Array(CalendarEvent), ...errors } },
    handler: async (request, reply) => {
      const { calendarId, year, month } = request.params;
      return sendJsonView(request, reply, await events.normalized(request.user.id, calendarId, monthRange(year, month), request.query.refresh === true));
    },
  });

  describedRoute(app, calendarRoutes.createEvent, {
    summary: 'Crea un evento',
    status: 201,
    errors,
    handler: async (request, reply) => {
      // Without a calendar: Google's 'primary' when Google is connected, else the next connected provider's default.
      const { calendarId, ...body } = request.body;
      return sendProviderJson(reply, writtenAnswer(await sources.create(request.user.id, calendarId, body)), 201);
    },
  });

  app.put('/events/:id', {
    schema: { summary: 'Actualiza un evento', params: EventIdParams, querystring: EventIdQuery, body: LocalEventBody, response: { 200: GoogleEvent, ...errors } },
    handler: async (request, reply) => {
      const { calendarId, ...body } = request.body;
      return sendProviderJson(reply, writtenAnswer(await sources.update(request.user.id, calendarId ?? request.query.calendarId ?? 'primary', request.params.id, body)));
    },
  });

  app.delete('/events/:id', {
    schema: { summary: 'Elimina un evento', params: EventIdParams, querystring: EventIdQuery, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await sources.delete(request.user.id, request.query.calendarId ?? 'primary', request.params.id);
      return reply.code(204).send(null);
    },
  });

}
