import { Type } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse, WhatsAppConnectResult, WhatsAppHealth, WhatsAppStatus } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { SessionManager } from '../domain/session-manager.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 503: ErrorResponse };

export async function connectionRoutes(app: App, { sessions }: { sessions: SessionManager }): Promise<void> {
  app.get('/whatsapp/status', {
    schema: { response: { 200: WhatsAppStatus, ...errors } },
    handler: (request) => sessions.status(request.user.id),
  });

  app.get('/whatsapp/health-panel', {
    schema: { response: { 200: WhatsAppHealth, ...errors } },
    handler: (request) => sessions.health(request.user.id),
  });

  app.post('/whatsapp/connect', {
    schema: { response: { 200: WhatsAppConnectResult, ...errors } },
    handler: (request) => sessions.connect(request.user.id),
  });

  app.post('/whatsapp/disconnect', {
    schema: { response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      await sessions.disconnect(request.user.id);
      return { success: true as const };
    },
  });

  app.post('/whatsapp/logout', {
    schema: { response: { 200: Type.Composite([SuccessResponse, WhatsAppConnectResult]), ...errors } },
    handler: async (request) => ({ success: true as const, ...(await sessions.logout(request.user.id)) }),
  });
}
