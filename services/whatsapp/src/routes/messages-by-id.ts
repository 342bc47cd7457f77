import { ErrorResponse, whatsappRoutes } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { ConversationsService } from '../domain/conversations.service.js';

/** `GET /whatsapp/messages/by-id?ids=…`: the messages events announced, read by id (the assistant's bursts, the inbox). */
export async function messagesByIdRoutes(app: App, { conversations }: { conversations: ConversationsService }): Promise<void> {
  describedRoute(app, whatsappRoutes.messagesById, {
    summary: 'Devuelve mensajes de WhatsApp por su identificador',
    errors: { 400: ErrorResponse, 401: ErrorResponse },
    handler: (request) => conversations.byId(request.user.workspaceId, request.query),
  });
}
