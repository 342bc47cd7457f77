import { Type } from '@sinclair/typebox';
import {
  CalendarEventParams,
  CalendarParams,
  ErrorResponse,
  EventBody,
  EventRangeQuery,
  GoogleCalendarEntry,
  GoogleEvent,
} from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { CalendarSyncService } from '../domain/calendar-sync.service.js';
import { parseInstant } from '@asistente/kit';
import { checkRange } from '../domain/dates.js';
import type { EventsService } from '../domain/events.service.js';
import { toGoogleEvent } from '../adapters/calendars/google/screen-event.js';
import type { GoogleWrites } from '../adapters/calendars/google/writes.js';
import { toCalendarEntry } from './calendar-entry.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };
const YEAR_MS = 365 * 86_400_000;

/** The Google Calendar screen's routes (spec section 7, under /api/google/google-calendar). */
export async function googleCalendarRoutes(
  app: App,
  { sync, events, writes }: { sync: CalendarSyncService; events: EventsService; writes: GoogleWrites },
): Promise<void> {
  app.get('/google/google-calendar/calendars', {
    schema: { summary: 'Lista los calendarios de Google', querystring: Type.Object({ refresh: Type.Optional(Type.Boolean()) }), response: { 200: Type.Array(GoogleCalendarEntry), ...errors } },
    handler: async (request) => (await sync.calendars(request.user.id, request.query.refresh === true)).map(toCalendarEntry),
  });

  const base = '/google/google-calendar/calendars/:calendarId/events';

  // Without dates: what is coming, from now on, for a year.
  app.get(base, {
    schema: { summary: 'Lista los eventos de un calendario de Google', params: CalendarParams, querystring: EventRangeQuery, response: { 200: Type.Array(GoogleEvent), ...errors } },
    handler: async (request) => {
      const { startDate, endDate } = request.query;
      const from = startDate ? parseInstant(startDate, 'La fecha de inicio') : new Date();
      const to = endDate ? parseInstant(endDate, 'La fecha de fin') : new Date(from.getTime() + YEAR_MS);
      const range = checkRange(from, to);
      return (await events.inCalendar(request.user.id, request.params.calendarId, range, request.query.refresh === true, request.query.maxResults)).map(toGoogleEvent);
    },
  });

  app.post(base, {
    schema: { summary: 'Crea un evento en un calendario de Google', params: CalendarParams, body: EventBody, response: { 201: GoogleEvent, ...errors } },
    handler: async (request, reply) => reply.code(201).send(toGoogleEvent(await writes.create(request.user.id, request.params.calendarId, request.body))),
  });

  app.put(`${base}/:eventId`, {
    schema: { summary: 'Actualiza un evento de Google', params: CalendarEventParams, body: EventBody, response: { 200: GoogleEvent, ...errors } },
    handler: async (request) => toGoogleEvent(await writes.update(request.user.id, request.params.calendarId, request.params.eventId, request.body)),
  });

  app.delete(`${base}/:eventId`, {
    schema: { summary: 'Elimina un evento de Google', params: CalendarEventParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await writes.delete(request.user.id, request.params.calendarId, request.params.eventId);
      return reply.code(204).send(null);
    },
  });
}
