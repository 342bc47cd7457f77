import { ErrorResponse, whatsappRoutes } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { ConversationsService } from '../domain/conversations.service.js';

/** `GET /whatsapp/handles?jids=…`: the channel-neutral handles of chats named by JID (only this service reads JIDs). */
export async function chatHandlesRoutes(app: App, { conversations }: { conversations: ConversationsService }): Promise<void> {
  describedRoute(app, whatsappRoutes.handles, {
    summary: 'Devuelve el identificador de canal (handle) de chats de WhatsApp',
    errors: { 400: ErrorResponse, 401: ErrorResponse },
    handler: (request) => conversations.handles(request.user.workspaceId, request.query),
  });
}
