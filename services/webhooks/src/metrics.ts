import type { Platform } from '@asistente/kit';
import type { DeliveryOutcome } from './domain/dispatcher.js';

/**
 * `asistente_webhook_deliveries_total{outcome}`: each attempt by how it ended (delivered, retrying: failed
 * and scheduled again, failed: given up or sent once). The consumer's backlog is the kit's
 * `asistente_consumer_pending{durable="webhooks"}`.
 */
export function webhookMetrics(platform: Platform): (outcome: DeliveryOutcome) => void {
  const attempts = platform.metrics.counter<'outcome'>({
    name: 'asistente_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retrying (failed, tried again later), failed (given up).',
    labelNames: ['outcome'],
  });
  return (outcome) => attempts.inc({ outcome });
}
