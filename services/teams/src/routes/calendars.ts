import {
  ErrorResponse,
  teamsRoutes,
  MicrosoftCalendarEvent,
  MicrosoftCalendarEventList,
  MicrosoftEventBody,
  MicrosoftEventParams,
  MicrosoftEventQuery,
  MicrosoftEventsQuery,
} from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { CalendarWritesService } from '../domain/calendar-writes.service.js';
import type { CalendarsService } from '../domain/calendars.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

/** Outlook calendars for Calendario's teams source, under both names the spec uses. */
export async function calendarRoutes(app: App, { calendars, writes }: { calendars: CalendarsService; writes: CalendarWritesService }): Promise<void> {
  for (const prefix of ['/microsoft', '/msteams/calendar']) {
    app.get(`${prefix}/calendars`, {
      schema: { summary: 'Lista los calendarios de Outlook', response: { 200: teamsRoutes.calendars.response, ...errors } },
      handler: (request) => calendars.calendars(request.user.id),
    });

    app.get(`${prefix}/events`, {
      schema: { summary: 'Lista los eventos de Outlook en un intervalo', querystring: MicrosoftEventsQuery, response: { 200: MicrosoftCalendarEventList, ...errors } },
      handler: (request) => calendars.events(request.user.id, request.query),
    });

    // Writes answer the event as the reads do (Graph's exclusive all-day end); the calendar service's /events
    // reaches Outlook through these.
    app.post(`${prefix}/events`, {
      schema: { summary: 'Crea un evento en un calendario de Outlook', body: MicrosoftEventBody, response: { 201: MicrosoftCalendarEvent, ...errors } },
      handler: async (request, reply) => reply.code(201).send(await writes.create(request.user.id, request.body)),
    });

    app.put(`${prefix}/events/:eventId`, {
      schema: { summary: 'Actualiza un evento de Outlook', params: MicrosoftEventParams, body: MicrosoftEventBody, response: { 200: MicrosoftCalendarEvent, ...errors } },
      handler: (request) => writes.update(request.user.id, request.params.eventId, request.body),
    });

    app.delete(`${prefix}/events/:eventId`, {
      schema: { summary: 'Elimina un evento de Outlook', params: MicrosoftEventParams, querystring: MicrosoftEventQuery, response: { 204: teamsRoutes.deleteEvent.response, ...errors } },
      handler: async (request, reply) => {
        await writes.delete(request.user.id, request.params.eventId, request.query.calendarId);
        return reply.code(204).send(null);
      },
    });
  }
}
