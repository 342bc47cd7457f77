import { Type } from '@sinclair/typebox';
import { ErrorResponse, MicrosoftCalendar, MicrosoftCalendarEventList, MicrosoftEventsQuery } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { CalendarsService } from '../domain/calendars.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

/** Outlook calendars for Calendario's teams source, under both names the spec uses. */
export async function calendarRoutes(app: App, { calendars }: { calendars: CalendarsService }): Promise<void> {
  for (const prefix of ['/microsoft', '/msteams/calendar']) {
    app.get(`${prefix}/calendars`, {
      schema: { summary: 'Lista los calendarios de Outlook', response: { 200: Type.Array(MicrosoftCalendar), ...errors } },
      handler: (request) => calendars.calendars(request.user.id),
    });

    app.get(`${prefix}/events`, {
      schema: { summary: 'Lista los eventos de Outlook en un intervalo', querystring: MicrosoftEventsQuery, response: { 200: MicrosoftCalendarEventList, ...errors } },
      handler: (request) => calendars.events(request.user.id, request.query),
    });
  }
}
