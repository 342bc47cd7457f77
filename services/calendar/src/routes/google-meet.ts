import { ErrorResponse, Meeting, MeetingBody, MeetingIdParams, MeetingList, MeetingListQuery, UrlResponse } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { MeetingsService } from '../domain/meetings.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

/** Google Meet meetings created from the product (spec section 7, under /api/google/google-meet). */
export async function googleMeetRoutes(app: App, { meetings }: { meetings: MeetingsService }): Promise<void> {
  app.post('/google/google-meet/create', {
    schema: { summary: 'Crea una reunión de Google Meet', body: MeetingBody, response: { 201: Meeting, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await meetings.create(request.user.id, request.body)),
  });

  app.get('/google/google-meet/meetings', {
    schema: { summary: 'Lista las reuniones de Google Meet', querystring: MeetingListQuery, response: { 200: MeetingList, ...errors } },
    handler: (request) => meetings.list(request.user.id, request.query),
  });

  app.get('/google/google-meet/meetings/:id/join', {
    schema: { summary: 'Enlace para unirse a una reunión de Meet', params: MeetingIdParams, response: { 200: UrlResponse, ...errors } },
    handler: async (request) => ({ url: await meetings.joinUrl(request.user.id, request.params.id) }),
  });

  app.post('/google/google-meet/meetings/:id/end', {
    schema: { summary: 'Da por terminada una reunión de Meet', params: MeetingIdParams, response: { 200: Meeting, ...errors } },
    handler: (request) => meetings.end(request.user.id, request.params.id),
  });
}
