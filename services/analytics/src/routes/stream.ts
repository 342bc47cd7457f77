import type { App, EventBus } from '@asistente/kit';
import { ROLLUPS_CHANGED } from '../consumers/rollup.consumer.js';

const HEARTBEAT_MS = 20_000;
/** Bursts (an import, the demo) become one refresh per this many ms. */
const COALESCE_MS = 300;

/**
 * GET /analytics/stream: Server-Sent Events telling the open Analytics
 * screen and Dashboard that the user's figures changed, so they refetch.
 * The signal crosses replicas through the bus, so the connection may live
 * on any analytics process.
 */
export async function streamRoutes(app: App, { bus }: { bus: EventBus }): Promise<void> {
  app.get('/analytics/stream', async (request, reply) => {
    const userId = request.user.id;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': String(request.id),
    });
    res.write(`retry: 3000\nevent: ready\ndata: {}\n\n`);

    let pending: NodeJS.Timeout | undefined;
    const stop = bus.onSignal(ROLLUPS_CHANGED, (changedUser) => {
      if (changedUser !== userId || pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        res.write(`event: rollups\ndata: ${JSON.stringify({ changedAt: new Date().toISOString() })}\n\n`);
      }, COALESCE_MS);
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    request.raw.once('close', () => {
      stop();
      clearInterval(heartbeat);
      clearTimeout(pending);
    });
  });
}
