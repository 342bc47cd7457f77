import { FileResponse } from '@asistente/contracts';
import type { App, EventBus, LiveStreams } from '@asistente/kit';
import { ROLLUPS_CHANGED } from '../consumers/rollup.consumer.js';

const HEARTBEAT_MS = 20_000;
/** Bursts (an import, the demo) become one refresh per this many ms. */
const COALESCE_MS = 300;

/**
 * GET /analytics/stream: Server-Sent Events telling the open Analytics
 * screen and Dashboard that the user's figures changed, so they refetch.
 * The signal crosses replicas through the bus, so the connection may live
 * on any analytics process. The platform's stream registry ends it at
 * shutdown (with a reconnect hint) and when its session ends.
 */
export async function streamRoutes(app: App, { bus, streams }: { bus: EventBus; streams: LiveStreams }): Promise<void> {
  const schema = {
    summary: 'Avisos en directo de cifras nuevas (Server-Sent Events)',
    response: { 200: FileResponse(['text/event-stream'], 'Eventos `ready` al abrir y `rollups` cuando cambian las cifras del usuario') },
  };
  app.get('/analytics/stream', { schema }, async (request, reply) => {
    const userId = request.user.workspaceId;
    const stream = streams.open(request, reply);
    stream.send('ready', {});

    let pending: NodeJS.Timeout | undefined;
    const stop = bus.onSignal(ROLLUPS_CHANGED, (changedUser) => {
      if (changedUser !== userId || pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        stream.send('rollups', { changedAt: new Date().toISOString() });
      }, COALESCE_MS);
    });
    const heartbeat = setInterval(() => stream.comment('ping'), HEARTBEAT_MS);
    stream.onClose(() => {
      stop();
      clearInterval(heartbeat);
      clearTimeout(pending);
    });
  });
}
