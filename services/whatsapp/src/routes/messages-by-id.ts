import { ErrorResponse, MessagesById, MessagesByIdQuery } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { ConversationsService } from '../domain/conversations.service.js';

/** `GET /whatsapp/messages/by-id?ids=…`: the messages events announced, read by id (the assistant's bursts, the inbox). */
export async function messagesByIdRoutes(app: App, { conversations }: { conversations: ConversationsService }): Promise<void> {
  app.get('/whatsapp/messages/by-id', {
    schema: { summary: 'Devuelve mensajes de WhatsApp por su identificador', querystring: MessagesByIdQuery, response: { 200: MessagesById, 400: ErrorResponse, 401: ErrorResponse } },
    handler: (request) => conversations.byId(request.user.workspaceId, request.query),
  });
}
