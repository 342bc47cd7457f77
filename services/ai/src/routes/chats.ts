import { AiChatParams, AiChatPauseBody, AiChatState, ErrorResponse } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { ChatSwitch } from '../domain/chat-switch.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse };

export async function chatRoutes(app: App, { chats }: { chats: ChatSwitch }): Promise<void> {
  app.get('/ai/chats/:jid', {
    schema: { summary: 'Estado del asistente en un chat', params: AiChatParams, response: { 200: AiChatState, ...errors } },
    handler: (request) => chats.state(request.user, request.params.jid),
  });

  app.put('/ai/chats/:jid/pause', {
    schema: { summary: 'Pausa o reanuda el asistente en un chat (reanudar se lo devuelve también en la bandeja compartida)', params: AiChatParams, body: AiChatPauseBody, response: { 200: AiChatState, ...errors } },
    handler: (request) => chats.setPaused(request.user, request.params.jid, request.body.paused),
  });
}
