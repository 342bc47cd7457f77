import type {
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointBody,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointPatch,
  WebhookEventType,
} from '@asistente/contracts';
import { getJson, sendDelete, sendJson } from '../../lib/http';
import { timeAgo } from '../../lib/time-ago';

export const DELIVERIES_PAGE_SIZE = 10;

export const listWebhooks = () => getJson<WebhookEndpointList>('webhooks');
export const createWebhook = (body: WebhookEndpointBody) => sendJson<WebhookEndpointCreated>('post', 'webhooks', body);
export const updateWebhook = (id: string, patch: WebhookEndpointPatch) => sendJson<WebhookEndpoint>('patch', `webhooks/${id}`, patch);
export const deleteWebhook = (id: string) => sendDelete(`webhooks/${id}`);
export const testWebhook = (id: string) => sendJson<WebhookDelivery>('post', `webhooks/${id}/test`, {});
export const resendDelivery = (id: string, deliveryId: string) => sendJson<WebhookDelivery>('post', `webhooks/${id}/deliveries/${deliveryId}/retry`, {});
export const fetchDeliveries = (id: string, page: number) =>
  getJson<WebhookDeliveryPage>(`webhooks/${id}/deliveries`, { searchParams: { page, limit: DELIVERIES_PAGE_SIZE } });

/** Every type an endpoint may want, in the form's order and words: a new type in the contracts fails to compile until it has them. */
export const EVENT_LABELS: Record<WebhookEventType, string> = {
  'contact.created': 'Contacto creado',
  'contact.updated': 'Contacto actualizado',
  'contact.deleted': 'Contacto eliminado',
  'whatsapp.message.received': 'Mensaje de WhatsApp recibido',
  'whatsapp.message.sent': 'Mensaje de WhatsApp enviado',
  'email.received': 'Correo recibido',
  'email.sent': 'Correo enviado',
  'calendar.event.created': 'Evento de calendario creado',
  'calendar.event.updated': 'Evento de calendario actualizado',
  'calendar.event.deleted': 'Evento de calendario eliminado',
  'ai.answer.sent': 'Respuesta enviada por el asistente IA',
  'conversation.message.received': 'Mensaje recibido en una conversación',
  'conversation.message.sent': 'Mensaje enviado en una conversación',
  'conversation.assigned': 'Conversación asignada',
  'conversation.status_changed': 'Conversación resuelta, pendiente o reabierta',
};
export const EVENT_TYPES = Object.keys(EVENT_LABELS) as WebhookEventType[];

const STATUS_LABELS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pendiente',
  delivered: 'Entregado',
  failed: 'Fallido',
};

/** What a log row says about its outcome: "Entregado (204)", "Reintentando: …", "Fallido: …". */
export function describeDelivery(delivery: WebhookDelivery): string {
  const code = delivery.responseStatus === null ? '' : ` (${delivery.responseStatus})`;
  if (delivery.status === 'delivered') return `${STATUS_LABELS.delivered}${code}`;
  if (delivery.status === 'pending' && delivery.attempts > 0) return `Reintentando${code}`;
  return `${STATUS_LABELS[delivery.status]}${code}`;
}

/** One line of a delivery's attempts: "Intento 2 · 200 · hace 1 minuto", "Intento 1 · sin respuesta · hace 3 minutos". */
export function describeAttempt(attempt: WebhookDeliveryAttempt, now = Date.now()): string {
  return `Intento ${attempt.attempt} · ${attempt.responseStatus ?? 'sin respuesta'} · ${timeAgo(attempt.at, now)}`;
}

const AT = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'medium' });
export const formatDeliveryAt = (iso: string) => AT.format(new Date(iso));
