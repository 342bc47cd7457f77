import {
  CloudConnectBody,
  CloudConnectResult,
  CloudTemplateList,
  CloudTemplateSendBody,
  CloudWindow,
  CloudWindowQuery,
  ErrorResponse,
  SuccessResponse,
  WhatsAppMessage,
} from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { CloudApiProvider } from '../adapters/cloud-api/cloud-provider.js';
import { checkOneRecipient, type OutboundService } from '../domain/outbound.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

interface Deps {
  cloud: CloudApiProvider;
  outbound: OutboundService;
}

/** The workspace's Cloud API number: connect, disconnect, its approved templates and the 24-hour window. */
export async function cloudRoutes(app: App, { cloud, outbound }: Deps): Promise<void> {
  app.post('/whatsapp/cloud/connect', {
    schema: { summary: 'Conecta un número de la API oficial de WhatsApp (Cloud API)', body: CloudConnectBody, response: { 200: CloudConnectResult, ...errors } },
    handler: async (request) => {
      const workspaceId = request.user.workspaceId;
      await cloud.connect(workspaceId, request.body);
      const account = (await cloud.account(workspaceId))!;
      return { connected: true as const, provider: 'cloud' as const, phone: account.displayPhone, name: account.verifiedName, qualityRating: account.qualityRating };
    },
  });

  app.post('/whatsapp/cloud/disconnect', {
    schema: { summary: 'Desconecta el número de la API oficial de WhatsApp', response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      await cloud.disconnect(request.user.workspaceId);
      return { success: true as const };
    },
  });

  app.get('/whatsapp/cloud/templates', {
    schema: { summary: 'Plantillas aprobadas de la cuenta de WhatsApp Business', response: { 200: CloudTemplateList, ...errors } },
    handler: async (request) => ({ data: await cloud.templates(request.user.workspaceId) }),
  });

  app.post('/whatsapp/cloud/templates/send', {
    schema: { summary: 'Envía una plantilla aprobada (también fuera de la ventana de 24 horas)', body: CloudTemplateSendBody, response: { 201: WhatsAppMessage, ...errors } },
    handler: async (request, reply) => {
      const workspaceId = request.user.workspaceId;
      const body = request.body;
      checkOneRecipient(body);
      const jid = await outbound.recipient(workspaceId, body, 'ES', undefined);
      const message = await cloud.queueTemplate(workspaceId, {
        jid,
        name: body.name,
        language: body.language,
        variables: body.variables,
        origin: body.origin ?? 'app',
        clientId: body.clientMessageId ?? null,
      });
      return reply.code(201).send(message);
    },
  });

  app.get('/whatsapp/cloud/window', {
    schema: { summary: 'Si la ventana de 24 horas con este cliente está abierta', querystring: CloudWindowQuery, response: { 200: CloudWindow, ...errors } },
    handler: async (request) => {
      const window = await cloud.window(request.user.workspaceId, request.query.jid);
      return { open: window.open, closesAt: window.closesAt?.toISOString() ?? null };
    },
  });
}
