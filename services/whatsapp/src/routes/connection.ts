import { Type } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse, WhatsAppConnectResult, WhatsAppHealth, WhatsAppStatus } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { SessionManager } from '../domain/session-manager.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 503: ErrorResponse };

export async function connectionRoutes(app: App, { sessions }: { sessions: SessionManager }): Promise<void> {
  app.get('/whatsapp/status', {
    schema: { summary: 'Estado de la conexión de WhatsApp (y el QR)', response: { 200: WhatsAppStatus, ...errors } },
    handler: (request) => sessions.status(request.user.workspaceId),
  });

  app.get('/whatsapp/health-panel', {
    schema: { summary: 'Panel de salud de la conexión de WhatsApp', response: { 200: WhatsAppHealth, ...errors } },
    handler: (request) => sessions.health(request.user.workspaceId),
  });

  app.post('/whatsapp/connect', {
    schema: { summary: 'Conecta WhatsApp (genera el QR)', response: { 200: WhatsAppConnectResult, ...errors } },
    handler: (request) => sessions.connect(request.user.workspaceId),
  });

  app.post('/whatsapp/disconnect', {
    schema: { summary: 'Desconecta WhatsApp sin cerrar la sesión', response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      await sessions.disconnect(request.user.workspaceId);
      return { success: true as const };
    },
  });

  app.post('/whatsapp/logout', {
    schema: { summary: 'Cierra la sesión de WhatsApp en el teléfono', response: { 200: Type.Composite([SuccessResponse, WhatsAppConnectResult]), ...errors } },
    handler: async (request) => ({ success: true as const, ...(await sessions.logout(request.user.workspaceId)) }),
  });
}
