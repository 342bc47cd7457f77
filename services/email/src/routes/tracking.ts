import { Type } from '@sinclair/typebox';
import { ErrorResponse, FileResponse, RedirectResponse } from '@asistente/contracts';
import { notFound, type App } from '@asistente/kit';
import type { TrackingService } from '../domain/tracking.service.js';

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const TrackParams = Type.Object({ sentId: Type.String({ format: 'uuid' }), mac: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) });
const ClickQuery = Type.Object({ u: Type.String({ minLength: 1, maxLength: 4000 }) });

// Public: mail apps load these without any session. The MAC is the only authority.
export async function trackingRoutes(app: App, { tracking }: { tracking: TrackingService }): Promise<void> {
  const pixel = (reply: Parameters<Parameters<App['get']>[1]['handler']>[1]) =>
    reply.type('image/gif').header('cache-control', 'no-store, private').send(PIXEL);

  app.get('/emails/track/open/:sentId/:mac', {
    config: { public: true },
    // Whatever the address, the same pixel: a prober learns nothing from the answer.
    errorHandler: (_error, _request, reply) => pixel(reply),
    schema: { summary: 'Píxel de apertura de un correo enviado', params: TrackParams, response: { 200: FileResponse(['image/gif'], 'Un GIF transparente de 1×1, el mismo para cualquier dirección') } },
    handler: async (request, reply) => {
      await tracking.open(request.params.sentId, request.params.mac);
      return pixel(reply);
    },
  });

  app.get('/emails/track/click/:sentId/:mac', {
    config: { public: true },
    schema: { summary: 'Enlace con seguimiento de un correo enviado', params: TrackParams, querystring: ClickQuery, response: { 302: RedirectResponse('Lleva al enlace original'), 404: ErrorResponse } },
    handler: async (request, reply) => {
      const { sentId, mac } = request.params;
      if (!(await tracking.click(sentId, request.query.u, mac))) throw notFound('Enlace no válido');
      return reply.header('cache-control', 'no-store, private').redirect(request.query.u, 302);
    },
  });
}
