import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_DELIVERY_RETENTION_DAYS,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_TEST_TYPE,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointBody,
  type WebhookEndpointCreated,
  type WebhookEndpointPatch,
  type WebhookMessage,
} from '@asistente/contracts';
import { AppError, conflict, currentTraceparent, notFound, type HostGuard, type SecretBox } from '@asistente/kit';
import type { DeliveriesRepository, LoggedDelivery } from './deliveries.repository.js';
import type { Clock, Dispatcher } from './dispatcher.js';
import { checkEndpointUrl } from './endpoint-url.js';
import type { EndpointRow, EndpointsRepository } from './endpoints.repository.js';
import { webhookBody } from './event-mapping.js';
import { newSecret } from './signature.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const DISABLED_BY_OWNER = 'Desactivado por ti';
const NOT_FOUND = 'Webhook no encontrado';

/** Configuración → "Webhooks": an owner's endpoints, their test sends and their delivery log. */
export class EndpointsService {
  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly dispatcher: Dispatcher,
    private readonly secrets: SecretBox,
    private readonly guard: HostGuard,
    private readonly now: Clock = () => new Date(),
  ) {}

  async list(userId: string): Promise<WebhookEndpoint[]> {
    return (await this.endpoints.list(userId)).map(endpointView);
  }

  /** The secret is sealed at rest and answered here only: the one time its owner sees it. */
  async create(userId: string, body: WebhookEndpointBody): Promise<WebhookEndpointCreated> {
    const url = await checkEndpointUrl(this.guard, body.url);
    const secret = newSecret();
    const row = await this.endpoints.create(
      {
        id: randomUUID(),
        userId,
        url,
        events: body.events,
        description: body.description?.trim() ?? '',
        idsOnly: body.idsOnly ?? false,
        secretEnc: this.secrets.seal(secret, this.endpoints.secretContext(userId)),
      },
      WEBHOOK_ENDPOINTS_MAX,
    );
    if (!row) throw conflict(`Puedes tener como máximo ${WEBHOOK_ENDPOINTS_MAX} webhooks. Elimina uno para añadir otro`, 'WEBHOOK_LIMIT');
    return { ...endpointView(row), secret };
  }

  async update(userId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpoint> {
    const url = patch.url === undefined ? undefined : await checkEndpointUrl(this.guard, patch.url);
    const row = await this.endpoints.update(userId, id, {
      ...(url !== undefined ? { url } : {}),
      ...(patch.events ? { events: patch.events } : {}),
      ...(patch.description !== undefined ? { description: patch.description.trim() } : {}),
      ...(patch.idsOnly !== undefined ? { idsOnly: patch.idsOnly } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled, disabledReason: patch.enabled ? null : DISABLED_BY_OWNER } : {}),
    });
    if (!row) throw notFound(NOT_FOUND);
    return endpointView(row);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.endpoints.delete(userId, id))) throw notFound(NOT_FOUND);
  }

  /** "Probar": a `webhook.test` delivery logged and sent now; the answer is how it went. */
  async test(userId: string, id: string): Promise<WebhookDelivery> {
    const endpoint = await this.endpoints.find(userId, id);
    if (!endpoint) throw notFound(NOT_FOUND);
    const now = this.now();
    const deliveryId = randomUUID();
    const body = webhookBody(WEBHOOK_TEST_TYPE, now.toISOString(), { endpointId: id, message: 'Prueba de webhook de Mi Asistente.IA' });
    await this.deliveries.insert([{ id: deliveryId, endpointId: id, userId, eventId: randomUUID(), type: WEBHOOK_TEST_TYPE, body, nextAttemptAt: null, traceparent: currentTraceparent() ?? null }], now);
    return this.sendNow(userId, id, deliveryId);
  }

  /** "Reenviar": the same message (same `webhook-id`) again, now, as one more attempt of the delivery. */
  async retry(userId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    return this.sendNow(userId, id, deliveryId);
  }

  async deliveryLog(userId: string, id: string, page: number, limit: number) {
    if (!(await this.endpoints.find(userId, id))) throw notFound(NOT_FOUND);
    const since = new Date(this.now().getTime() - WEBHOOK_DELIVERY_RETENTION_DAYS * DAY_MS);
    const { rows, total } = await this.deliveries.page(userId, id, since, page, limit);
    return { data: rows.map(deliveryView), pagination: { total, page, limit } };
  }

  private async sendNow(userId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const row = await this.dispatcher.sendNow(userId, id, deliveryId);
    if (row === 'busy') throw new AppError(409, 'WEBHOOK_DELIVERY_BUSY', 'Esta entrega se está enviando ahora mismo. Espera unos segundos');
    if (!row) throw notFound('Entrega no encontrada');
    return deliveryView(row);
  }
}

export function endpointView(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    idsOnly: row.idsOnly,
    disabledReason: row.enabled ? null : row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function deliveryView(row: LoggedDelivery): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpointId,
    messageId: row.id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    error: row.error,
    nextAttemptAt: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    payload: JSON.parse(row.body) as WebhookMessage,
    attemptLog: row.attemptLog.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
  };
}
