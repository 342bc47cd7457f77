import { GoogleCallbackQuery, GoogleStatus, RedirectResponse, SuccessResponse, UrlResponse, ErrorResponse, securityClient } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { GoogleConnectionService } from '../domain/google-connection.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 503: ErrorResponse };

/** Google's OAuth: the consent URL, the public callback, status and disconnect. */
interface ConnectionDeps {
  connection: GoogleConnectionService;
  publicUrl: string;
  /** Runs the disconnect (`forget`) so that the push channels are stopped at Google while the grant still works. */
  disconnecting: (userId: string, forget: () => Promise<void>) => Promise<void>;
}

export async function googleConnectionRoutes(app: App, { connection, publicUrl, disconnecting }: ConnectionDeps): Promise<void> {
  app.get('/google/redirect', {
    schema: { summary: 'Empieza la conexión con Google Calendar', response: { 200: UrlResponse, ...errors } },
    handler: (request, reply) => {
      const { url, cookie } = connection.authorizationUrl(request.user.id);
      void reply.header('set-cookie', cookie);
      return { url };
    },
  });

  // Google sends the browser here: no bearer token; the signed state says whose connection this is, the cookie that this is their browser.
  app.get('/google/callback', {
    config: { public: true },
    schema: { summary: 'Vuelta de la autorización de Google', querystring: GoogleCallbackQuery, response: { 302: RedirectResponse('Vuelve a la pantalla de Google Calendar con el resultado en `google`') } },
    handler: async (request, reply) => {
      const outcome = await connection.complete(request.query, request.headers.cookie, securityClient(request));
      void reply.header('set-cookie', connection.clearCookie);
      return reply.redirect(`${publicUrl.replace(/\/$/, '')}/google-calendar?google=${outcome}`, 302);
    },
  });

  app.get('/google/google-calendar/status', {
    schema: { summary: 'Estado de la conexión con Google Calendar', response: { 200: GoogleStatus, ...errors } },
    handler: (request) => connection.status(request.user.id),
  });

  app.post('/google/google-calendar/disconnect', {
    schema: { summary: 'Desconecta Google Calendar', response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      const userId = request.user.id;
      await disconnecting(userId, () => connection.disconnect(userId, securityClient(request)));
      return { success: true as const };
    },
  });
}
