import { ErrorResponse, teamsRoutes } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { CalendarWritesService } from '../domain/calendar-writes.service.js';
import type { CalendarsService } from '../domain/calendars.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

/** The descriptors name the routes under /microsoft; the spec also names them under /msteams/calendar. */
const PREFIXES = ['/microsoft', '/msteams/calendar'];

/** Outlook calendars for Calendario's teams source, under both names the spec uses. */
export async function calendarRoutes(app: App, { calendars, writes }: { calendars: CalendarsService; writes: CalendarWritesService }): Promise<void> {
  for (const prefix of PREFIXES) {
    const at = (route: { path: string }) => route.path.replace(/^\/microsoft/, prefix);
    describedRoute(app, teamsRoutes.calendars, {
      url: at(teamsRoutes.calendars),
      summary: 'Lista los calendarios de Outlook',
      errors,
      handler: (request) => calendars.calendars(request.user.id),
    });

    describedRoute(app, teamsRoutes.events, {
      url: at(teamsRoutes.events),
      summary: 'Lista los eventos de Outlook en un intervalo',
      errors,
      handler: (request) => calendars.events(request.user.id, request.query),
    });

    // Writes answer the event as the reads do (Graph's exclusive all-day end); the calendar service's /events
    // reaches Outlook through these.
    describedRoute(app, teamsRoutes.createEvent, {
      url: at(teamsRoutes.createEvent),
      summary: 'Crea un evento en un calendario de Outlook',
      status: 201,
      errors,
      handler: async (request, reply) => reply.code(201).send(await writes.create(request.user.id, request.body)),
    });

    describedRoute(app, teamsRoutes.updateEvent, {
      url: at(teamsRoutes.updateEvent),
      summary: 'Actualiza un evento de Outlook',
      errors,
      handler: (request) => writes.update(request.user.id, request.params.eventId, request.body),
    });

    describedRoute(app, teamsRoutes.deleteEvent, {
      url: at(teamsRoutes.deleteEvent),
      summary: 'Elimina un evento de Outlook',
      status: 204,
      errors,
      handler: async (request, reply) => {
        await writes.delete(request.user.id, request.params.eventId, request.query.calendarId);
        return reply.code(204).send(null);
      },
    });
  }
}
