import { authPlugin, HostGuard, registerSecretColumns, registerUserErasure, requireAuth, type App, type Platform, type ServicePlugin } from '@asistente/kit';
import { WEBHOOKS_SECRET_COLUMNS } from './domain/secret-columns.js';
import { HttpSender } from './adapters/http-sender.js';
import { DeliveriesConsumer } from './consumers/deliveries.consumer.js';
import { DeliveriesRepository } from './domain/deliveries.repository.js';
import { Dispatcher, type Clock, type DispatcherOptions } from './domain/dispatcher.js';
import { EndpointsRepository } from './domain/endpoints.repository.js';
import { EndpointsService } from './domain/endpoints.service.js';
import type { WebhookSender } from './domain/webhook-sender.js';
import { registerWebhookBacklog, webhookMetrics } from './metrics.js';
import { webhookRoutes } from './routes/webhooks.js';

/** Name of the durable JetStream consumer (shared by every webhooks replica). */
export const WEBHOOKS_CONSUMER = 'webhooks';

export interface WebhooksOptions {
  /** The clock every decision reads (tests drive retries with their own). */
  now?: Clock;
  sender?: WebhookSender;
  dispatcher?: Omit<DispatcherOptions, 'now' | 'onOutcome'>;
}

/** A dispatcher on the platform's database: the plugin runs one; tests and benches start more (replicas). */
export function createDispatcher(platform: Platform, options: WebhooksOptions = {}): Dispatcher {
  const { sql } = platform.db;
  const sender = options.sender ?? new HttpSender(new HostGuard(platform.config.ALLOWED_PRIVATE_ADDRESSES));
  return new Dispatcher(sql, new DeliveriesRepository(sql), new EndpointsRepository(sql), platform.secrets, sender, platform.log, {
    ...options.dispatcher,
    ...(options.now ? { now: options.now } : {}),
    onOutcome: webhookMetrics(platform),
  });
}

/** The webhooks service with its own clock and sender (tests); the default export is the real one. */
export function webhooksService(options: WebhooksOptions = {}): ServicePlugin {
  return async (fastify, { platform }) => {
    const app = fastify as unknown as App;
    const { sql } = platform.db;
    await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
    requireAuth(app);
    const endpoints = new EndpointsRepository(sql);
    const deliveries = new DeliveriesRepository(sql);
    const dispatcher = createDispatcher(platform, options);
    const consumer = new DeliveriesConsumer(sql, endpoints, deliveries, dispatcher.poke, options.now);
    await platform.bus.subscribe(WEBHOOKS_CONSUMER, async (events) => {
      await consumer.handle(events);
    });
    // Account erasure: every table of the schema with a user_id (endpoints, their deliveries) is swept.
    await registerUserErasure(platform, { service: 'webhooks' });
    // Its sealed columns, where key rotation (`asistente admin rotate-keys`) finds them.
    await registerSecretColumns(platform.db.sql, WEBHOOKS_SECRET_COLUMNS);
    registerWebhookBacklog(platform);
    dispatcher.start();
    app.addHook('onClose', () => dispatcher.stop());
    const guard = new HostGuard(platform.config.ALLOWED_PRIVATE_ADDRESSES);
    await webhookRoutes(app, { endpoints: new EndpointsService(endpoints, deliveries, dispatcher, platform.secrets, guard, options.now) });
  };
}

export default webhooksService();
export { DeliveriesConsumer } from './consumers/deliveries.consumer.js';
export { DeliveriesRepository } from './domain/deliveries.repository.js';
export { EndpointsRepository } from './domain/endpoints.repository.js';
export { Dispatcher, DISABLED_AFTER_FAILURES } from './domain/dispatcher.js';
export { HttpSender } from './adapters/http-sender.js';
export * from './domain/secret-columns.js';
