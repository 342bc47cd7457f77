import { calendarRoutes, ErrorResponse } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { VideoMeetings } from '../domain/meetings/video-meetings.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

/** The meeting port: a video meeting with whichever provider the member has connected. */
export async function meetingRoutes(app: App, { meetings }: { meetings: VideoMeetings }): Promise<void> {
  describedRoute(app, calendarRoutes.createMeeting, {
    summary: 'Crea una reunión por videollamada con el proveedor conectado (Google Meet o Teams)',
    status: 201,
    errors,
    handler: async (request, reply) => reply.code(201).send(await meetings.create(request.user.id, request.body)),
  });

  describedRoute(app, calendarRoutes.meetingProvider, {
    summary: 'Proveedor con el que se crearía una reunión ahora',
    errors,
    handler: (request) => meetings.choice(request.user.id),
  });
}
