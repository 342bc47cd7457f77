import { Type } from '@sinclair/typebox';
import type { App } from '@asistente/kit';
import { notFound } from '@asistente/kit';
import type { TrackingService } from '../domain/tracking.service.js';

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 8000 }) });

// Public: mail apps load these without any session. The signed token is the only authority.
export async function trackingRoutes(app: App, { tracking }: { tracking: TrackingService }): Promise<void> {
  app.get('/emails/track/open/:token', {
    config: { public: true },
    schema: { params: TokenParams },
    handler: async (request, reply) => {
      await tracking.open(request.params.token);
      // The same pixel whatever the token: a prober learns nothing from the answer.
      return reply.type('image/gif').header('cache-control', 'no-store, private').send(PIXEL);
    },
  });

  app.get('/emails/track/click/:token', {
    config: { public: true },
    schema: { params: TokenParams },
    handler: async (request, reply) => {
      const url = await tracking.click(request.params.token);
      if (!url) throw notFound('Enlace no válido');
      return reply.header('cache-control', 'no-store, private').redirect(url, 302);
    },
  });
}
