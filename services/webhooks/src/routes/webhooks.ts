import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  IdParams,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointBody,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointPatch,
  WEBHOOK_ENDPOINTS_MAX,
} from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { EndpointsService } from '../domain/endpoints.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/**
 * Configuración → "Webhooks". A session only: the scope table opens /webhooks to no personal token (an
 * endpoint copies the owner's data out, and creating one hands out a signing secret).
 */
export async function webhookRoutes(app: App, { endpoints }: { endpoints: EndpointsService }): Promise<void> {
  app.get('/webhooks', {
    schema: { summary: 'Lista tus webhooks', response: { 200: WebhookEndpointList, ...errors } },
    handler: async (request) => ({ endpoints: await endpoints.list(request.user.workspaceId), max: WEBHOOK_ENDPOINTS_MAX }),
  });

  app.post('/webhooks', {
    schema: {
      summary: 'Añade un webhook (el secreto de firma se muestra solo en esta respuesta)',
      body: WebhookEndpointBody,
      response: { 201: WebhookEndpointCreated, ...errors },
    },
    handler: async (request, reply) => reply.code(201).send(await endpoints.create(request.user.workspaceId, request.body)),
  });

  app.patch('/webhooks/:id', {
    schema: { summary: 'Cambia un webhook, o lo activa y desactiva', params: IdParams, body: WebhookEndpointPatch, response: { 200: WebhookEndpoint, ...errors } },
    handler: (request) => endpoints.update(request.user.workspaceId, request.params.id, request.body),
  });

  app.delete('/webhooks/:id', {
    schema: { summary: 'Elimina un webhook y su registro de entregas', params: IdParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await endpoints.delete(request.user.workspaceId, request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/webhooks/:id/test', {
    schema: { summary: 'Envía ahora un evento de prueba (webhook.test) y responde cómo fue', params: IdParams, response: { 200: WebhookDelivery, ...errors } },
    handler: (request) => endpoints.test(request.user.workspaceId, request.params.id),
  });

  app.get('/webhooks/:id/deliveries', {
    schema: {
      summary: 'Registro de entregas del webhook (30 días, las más recientes primero)',
      params: IdParams,
      querystring: WebhookDeliveriesQuery,
      response: { 200: WebhookDeliveryPage, ...errors },
    },
    handler: (request) => endpoints.deliveryLog(request.user.workspaceId, request.params.id, request.query.page, request.query.limit),
  });

  app.post('/webhooks/:id/deliveries/:deliveryId/retry', {
    schema: { summary: 'Reenvía una entrega ahora (el mismo mensaje)', params: WebhookDeliveryParams, response: { 200: WebhookDelivery, ...errors } },
    handler: (request) => endpoints.retry(request.user.workspaceId, request.params.id, request.params.deliveryId),
  });
}
