import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  MicrosoftLoginResponse,
  RedirectResponse,
  securityClient,
  SuccessResponse,
  TeamsConnectResponse,
  teamsRoutes,
} from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { ConnectionService } from '../domain/connection.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 503: ErrorResponse };

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 1024 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ maxLength: 4096 })),
  session_state: Type.Optional(Type.String({ maxLength: 1024 })),
});

export async function connectionRoutes(app: App, { connection }: { connection: ConnectionService }): Promise<void> {
  describedRoute(app, teamsRoutes.status, {
    summary: 'Estado de la conexión con Microsoft',
    errors,
    handler: (request) => connection.status(request.user.id),
  });

  app.post('/teams/connect', {
    schema: { summary: 'Empieza la conexión con Microsoft (Teams y Outlook)', response: { 200: TeamsConnectResponse, ...errors } },
    handler: (request, reply) => {
      const { url, cookie } = connection.authorizeUrl(request.user.id);
      void reply.header('set-cookie', cookie);
      return { authUrl: url };
    },
  });

  // The spec's Calendario names the same start as /microsoft/login (GET answers { url }; POST too).
  for (const method of ['get', 'post'] as const) {
    app[method]('/microsoft/login', {
      schema: { summary: 'Empieza la conexión con Microsoft (enlace de autorización)', response: { 200: MicrosoftLoginResponse, ...errors } },
      handler: (request, reply) => {
        const { url, cookie } = connection.authorizeUrl(request.user.id);
        void reply.header('set-cookie', cookie);
        return { url };
      },
    });
  }

  app.post('/teams/disconnect', {
    schema: { summary: 'Desconecta Microsoft', response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      await connection.disconnect(request.user.id, securityClient(request));
      return { success: true as const };
    },
  });

  // Microsoft sends the browser here (no bearer token): the signed state says whose connection it is, the
  // cookie (scoped to /api/teams/callback, the redirect URI) that this is their browser.
  for (const path of ['/teams/callback', '/microsoft/callback']) {
    app.get(path, {
      config: { public: true },
      schema: { summary: 'Vuelta de la autorización de Microsoft', querystring: CallbackQuery, response: { 302: RedirectResponse('Vuelve a la aplicación con el resultado de la conexión') } },
      handler: async (request, reply) => {
        const outcome = await connection.completeCallback(request.query, request.headers.cookie, securityClient(request));
        return reply.header('set-cookie', outcome.clearCookie).redirect(outcome.location, 302);
      },
    });
  }
}
