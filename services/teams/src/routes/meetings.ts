import { ErrorResponse, TeamsMeeting, TeamsMeetingBody, TeamsMeetingList, TeamsMeetingsQuery } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { MeetingsService } from '../domain/meetings.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

export async function meetingRoutes(app: App, { meetings }: { meetings: MeetingsService }): Promise<void> {
  app.get('/teams/meetings', {
    schema: { summary: 'Lista las reuniones de Teams', querystring: TeamsMeetingsQuery, response: { 200: TeamsMeetingList, ...errors } },
    handler: (request) => meetings.list(request.user.id, request.query),
  });

  app.post('/teams/meetings', {
    schema: { summary: 'Crea una reunión de Teams', body: TeamsMeetingBody, response: { 201: TeamsMeeting, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await meetings.create(request.user.id, request.body)),
  });
}
