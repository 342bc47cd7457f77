import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  TeamsChannel,
  TeamsIdParams,
  TeamsMessage,
  TeamsMessageBody,
  TeamsMessagesQuery,
  TeamsTeam,
} from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { TeamsService } from '../domain/teams.service.js';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
  502: ErrorResponse,
  503: ErrorResponse,
};

export async function teamsRoutes(app: App, { teams }: { teams: TeamsService }): Promise<void> {
  app.get('/teams', {
    schema: { summary: 'Lista los equipos de Teams', response: { 200: Type.Array(TeamsTeam), ...errors } },
    handler: (request) => teams.teams(request.user.id),
  });

  app.get('/teams/:id/channels', {
    schema: { summary: 'Lista los canales de un equipo', params: TeamsIdParams, response: { 200: Type.Array(TeamsChannel), ...errors } },
    handler: (request) => teams.teamChannels(request.user.id, request.params.id),
  });

  app.get('/teams/channels/:id/messages', {
    schema: { summary: 'Mensajes de un canal de Teams', params: TeamsIdParams, querystring: TeamsMessagesQuery, response: { 200: Type.Array(TeamsMessage), ...errors } },
    handler: (request) => teams.messages(request.user.id, request.params.id, request.query.limit),
  });

  app.post('/teams/channels/:id/messages', {
    schema: { summary: 'Publica un mensaje en un canal de Teams', params: TeamsIdParams, body: TeamsMessageBody, response: { 201: TeamsMessage, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await teams.post(request.user.id, request.params.id, request.body.message)),
  });
}
