import { ConversationPresence, ErrorResponse, FileResponse, IdParams, PresenceBody } from '@asistente/contracts';
import type { App, EventBus, LiveStreams } from '@asistente/kit';
import { CONVERSATION_CHANGED, PRESENCE_CHANGED, type ChangedSignal, type PresenceSignal } from '../domain/live-signals.js';
import type { Presence } from '../domain/presence.js';

const HEARTBEAT_MS = 20_000;
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/**
 * The inbox live: a member's screen says which conversation it shows and whether they type; every screen of
 * the workspace, on whichever replica holds its stream, hears who views and types where, and which
 * conversations changed (so it refetches them instead of polling).
 */
export async function liveRoutes(app: App, { presence, bus, streams }: { presence: Presence; bus: EventBus; streams: LiveStreams }): Promise<void> {
  app.post('/conversations/:id/presence', {
    schema: {
      summary: 'Indica que estás viendo una conversación (y si escribes); renuévalo mientras siga abierta',
      params: IdParams,
      body: PresenceBody,
      response: { 200: ConversationPresence, ...errors },
    },
    handler: (request) => presence.update(request.user, request.params.id, request.body),
  });

  const schema = {
    summary: 'Avisos en directo de la bandeja (Server-Sent Events)',
    response: {
      200: FileResponse(['text/event-stream'], 'Eventos `ready` al abrir, `conversation` cuando una cambia y `presence` con quién la ve y quién escribe'),
    },
  };
  app.get('/conversations/stream', { schema }, async (request, reply) => {
    const { workspaceId } = request.user;
    const stream = streams.open(request, reply);
    stream.send('ready', {});
    const stops = [
      bus.onSignal(CONVERSATION_CHANGED, (payload) => {
        const signal = JSON.parse(payload) as ChangedSignal;
        if (signal.workspaceId === workspaceId) stream.send('conversation', { conversationId: signal.conversationId });
      }),
      bus.onSignal(PRESENCE_CHANGED, (payload) => {
        const signal = JSON.parse(payload) as PresenceSignal;
        if (signal.workspaceId === workspaceId) stream.send('presence', signal.presence);
      }),
    ];
    const heartbeat = setInterval(() => stream.comment('ping'), HEARTBEAT_MS);
    stream.onClose(() => {
      for (const stop of stops) stop();
      clearInterval(heartbeat);
    });
  });
}
