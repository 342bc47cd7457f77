import { ErrorResponse, TeamsMeetingList, TeamsMeetingsQuery, teamsRoutes } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { MeetingsService } from '../domain/meetings.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

export async function meetingRoutes(app: App, { meetings }: { meetings: MeetingsService }): Promise<void> {
  app.get('/teams/meetings', {
    schema: { summary: 'Lista las reuniones de Teams', querystring: TeamsMeetingsQuery, response: { 200: TeamsMeetingList, ...errors } },
    handler: (request) => meetings.list(request.user.id, request.query),
  });

  describedRoute(app, teamsRoutes.createMeeting, {
    summary: 'Crea una reunión de Teams',
    status: 201,
    errors,
    handler: async (request, reply) => reply.code(201).send(await meetings.create(request.user.id, request.body)),
  });
}
