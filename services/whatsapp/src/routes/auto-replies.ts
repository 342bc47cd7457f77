import { Type } from '@sinclair/typebox';
import { AutoReply, AutoReplyBody, AutoReplyList, AutoReplyPatch, ErrorResponse, IdParams } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { AutoRepliesService } from '../domain/auto-replies.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

export async function autoReplyRoutes(app: App, { autoReplies }: { autoReplies: AutoRepliesService }): Promise<void> {
  app.get('/whatsapp/auto-replies', {
    schema: { summary: 'Lista las respuestas automáticas', response: { 200: AutoReplyList, ...errors } },
    handler: async (request) => ({ data: await autoReplies.list(request.user.workspaceId) }),
  });

  app.post('/whatsapp/auto-replies', {
    schema: { summary: 'Crea una respuesta automática', body: AutoReplyBody, response: { 201: AutoReply, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await autoReplies.create(request.user.workspaceId, request.body)),
  });

  app.patch('/whatsapp/auto-replies/:id', {
    schema: { summary: 'Modifica una respuesta automática', params: IdParams, body: AutoReplyPatch, response: { 200: AutoReply, ...errors } },
    handler: (request) => autoReplies.update(request.user.workspaceId, request.params.id, request.body),
  });

  app.delete('/whatsapp/auto-replies/:id', {
    schema: { summary: 'Elimina una respuesta automática', params: IdParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await autoReplies.delete(request.user.workspaceId, request.params.id);
      return reply.code(204).send(null);
    },
  });
}
