import { CaldavCalendarBody, CaldavCalendarEntry, CaldavConnectBody, CaldavConnectResponse, CaldavStatus, ErrorResponse, SuccessResponse, securityClient } from '@asistente/contracts';
import { Type } from '@sinclair/typebox';
import type { App } from '@asistente/kit';
import type { CaldavConnectionService } from '../adapters/calendars/caldav/connection.service.js';
import type { CaldavEventsService } from '../adapters/calendars/caldav/events.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse };
const entry = (c: { id: string; name: string; color: string | null }) => ({ id: c.id, name: c.name, color: c.color });

/** The CalDAV connection (iCloud, Fastmail, Nextcloud…): its events go through /events like every calendar's. */
export async function caldavRoutes(app: App, { connection, events }: { connection: CaldavConnectionService; events: CaldavEventsService }): Promise<void> {
  app.post('/caldav/connect', {
    schema: { summary: 'Conecta un calendario CalDAV (iCloud, Fastmail, Nextcloud) con usuario y contraseña de aplicación', body: CaldavConnectBody, response: { 200: CaldavConnectResponse, ...errors } },
    handler: async (request) => {
      const calendars = await connection.connect(request.user.id, request.body, securityClient(request));
      return { connected: true as const, calendars: calendars.map(entry) };
    },
  });

  app.get('/caldav/status', {
    schema: { summary: 'Estado de la conexión CalDAV', response: { 200: CaldavStatus, ...errors } },
    handler: (request) => connection.status(request.user.id),
  });

  app.get('/caldav/calendars', {
    schema: { summary: 'Lista los calendarios CalDAV', querystring: Type.Object({ refresh: Type.Optional(Type.Boolean()) }), response: { 200: Type.Array(CaldavCalendarEntry), ...errors } },
    handler: async (request) => {
      if (!(await connection.connected(request.user.id))) return [];
      return (await events.calendars(request.user.id, request.query.refresh === true)).map(entry);
    },
  });

  // A server with no calendar yet (a new Radicale, a Nextcloud account never opened) is not a dead end.
  app.post('/caldav/calendars', {
    schema: { summary: 'Crea un calendario en el servidor CalDAV conectado', body: CaldavCalendarBody, response: { 201: CaldavCalendarEntry, ...errors } },
    handler: async (request, reply) => {
      const created = await events.createCalendar(request.user.id, request.body.name);
      return reply.code(201).send(entry(created));
    },
  });

  app.post('/caldav/disconnect', {
    schema: { summary: 'Desconecta CalDAV y olvida sus calendarios', response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      await connection.disconnect(request.user.id, securityClient(request));
      return { success: true as const };
    },
  });
}
