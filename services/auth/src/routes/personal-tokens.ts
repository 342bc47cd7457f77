import { Type } from '@sinclair/typebox';
import { CreatedPersonalToken, CreatePersonalTokenBody, ErrorResponse, IdParams, PersonalTokenList, securityClient } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { PersonalTokensService } from '../domain/personal-tokens.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/** Configuración → "Tokens de acceso": a session's own routes (a personal token never reaches them: see the auth app). */
export async function personalTokenRoutes(app: App, { tokens }: { tokens: PersonalTokensService }): Promise<void> {
  app.post('/auth/tokens', {
    schema: {
      summary: 'Crea un token de acceso personal (el token solo se muestra en esta respuesta)',
      body: CreatePersonalTokenBody,
      response: { 201: CreatedPersonalToken, ...errors },
    },
    handler: async (request, reply) => {
      const { jti, issuedAtMs = 0 } = request.user;
      const created = await tokens.create(request.user, { jti, issuedAtMs }, request.body, securityClient(request));
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  });

  app.get('/auth/tokens', {
    schema: { summary: 'Lista los tokens de acceso personal, sin su secreto', response: { 200: PersonalTokenList, ...errors } },
    handler: async (request) => ({ data: await tokens.list(request.user) }),
  });

  app.delete('/auth/tokens/:id', {
    schema: { summary: 'Revoca un token de acceso personal al momento', params: IdParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await tokens.revoke(request.user, request.params.id, securityClient(request));
      return reply.code(204).send(null);
    },
  });
}
