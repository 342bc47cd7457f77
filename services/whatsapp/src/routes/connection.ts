import { Type } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse, WhatsAppConnectResult, WhatsAppHealth, whatsappRoutes } from '@asistente/contracts';
import { conflict, describedRoute, type App } from '@asistente/kit';
import type { WhatsAppStatus as Status } from '@asistente/contracts';
import type { CloudApiProvider } from '../adapters/cloud-api/cloud-provider.js';
import type { CloudAccountRow } from '../domain/cloud-accounts.repository.js';
import type { SessionManager } from '../domain/session-manager.js';

/** Linking a phone by QR while the workspace's number is on the Cloud API: one number, one provider. */
export const CLOUD_IN_USE = 'Este espacio de trabajo usa la API oficial de WhatsApp. Desconéctala antes de vincular un teléfono con código QR';

function cloudStatus(account: CloudAccountRow): Status {
  return {
    provider: 'cloud',
    qualityRating: account.qualityRating,
    connected: true,
    qrCode: null,
    state: 'connected',
    phone: account.displayPhone,
    name: account.verifiedName,
    since: account.connectedAt.toISOString(),
    lastEventAt: null,
    error: null,
    qrShown: false,
    hasSession: false,
  };
}

const errors = { 400: ErrorResponse, 401: ErrorResponse, 409: ErrorResponse, 503: ErrorResponse };

export async function connectionRoutes(app: App, { sessions, cloud }: { sessions: SessionManager; cloud: CloudApiProvider }): Promise<void> {
  const refuseWhileCloud = async (workspaceId: string) => {
    if (await cloud.account(workspaceId)) throw conflict(CLOUD_IN_USE, 'WHATSAPP_CLOUD_IN_USE');
  };

  describedRoute(app, whatsappRoutes.status, {
    summary: 'Estado de la conexión de WhatsApp (y el QR)',
    errors,
    handler: async (request) => {
      const account = await cloud.account(request.user.workspaceId);
      return account ? cloudStatus(account) : sessions.status(request.user.workspaceId);
    },
  });

  app.get('/whatsapp/health-panel', {
    schema: { summary: 'Panel de salud de la conexión de WhatsApp', response: { 200: WhatsAppHealth, ...errors } },
    handler: (request) => sessions.health(request.user.workspaceId),
  });

  app.post('/whatsapp/connect', {
    schema: { summary: 'Conecta WhatsApp (genera el QR)', response: { 200: WhatsAppConnectResult, ...errors } },
    handler: async (request) => {
      await refuseWhileCloud(request.user.workspaceId);
      return sessions.connect(request.user.workspaceId);
    },
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
    handler: async (request) => {
      await refuseWhileCloud(request.user.workspaceId);
      return { success: true as const, ...(await sessions.logout(request.user.workspaceId)) };
    },
  });
}
