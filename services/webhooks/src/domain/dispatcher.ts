import { randomUUID } from 'node:crypto';
import { WEBHOOK_DELIVERY_RETENTION_DAYS, WEBHOOK_RETRY_WINDOW_MS, WEBHOOK_TEST_TYPE } from '@asistente/contracts';
import { traceLinkedWork, type Logger, type SecretBox, type Sql } from '@asistente/kit';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import type { ClaimedDelivery, DeliveriesRepository, LoggedDelivery } from './deliveries.repository.js';
import type { EndpointsRepository } from './endpoints.repository.js';
import { nextAttemptAt } from './retry-schedule.js';
import { signedHeaders } from './signature.js';

export type Clock = () => Date;
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

export interface DispatcherOptions {
  now?: Clock;
  /** Deliveries claimed per query. */
  batch?: number;
  /** Sends in flight at once in this process; a slow receiver holds one slot, never the others. */
  maxInFlight?: number;
  /** How long a claim keeps others off a delivery: beyond the send timeout, so a live send is never doubled. */
  leaseMs?: number;
  /** The look for due retries nobody announced (another replica's, or after a restart). */
  pollMs?: number;
  onOutcome?: (outcome: DeliveryOutcome) => void;
}

export const DISABLED_AFTER_FAILURES = 'Desactivado automáticamente: las entregas fallaron durante 24 horas';
const PURGE_BATCH = 1000;

/** The receiver's host alone, for the attempt's span. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'invalid';
  }
}
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Sends due deliveries. Work is claimed in PostgreSQL (SKIP LOCKED + a lease), so any number of replicas
 * run one each without sending a delivery twice; `poke()` after the consumer's commit sends a new one at
 * once, and a slow poll picks up retries as they fall due. Every decision reads the injected clock.
 */
export class Dispatcher {
  private readonly now: Clock;
  private readonly batch: number;
  private readonly maxInFlight: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly onOutcome: (outcome: DeliveryOutcome) => void;
  private claiming: Promise<void> | undefined;
  private again = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly delivered: { delivery: ClaimedDelivery; result: SendResult; done: () => void; failed: (error: unknown) => void }[] = [];
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastPurge = 0;

  constructor(
    private readonly sql: Sql,
    private readonly deliveries: DeliveriesRepository,
    private readonly endpoints: EndpointsRepository,
    private readonly secrets: SecretBox,
    private readonly sender: WebhookSender,
    private readonly log: Logger,
    options: DispatcherOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.batch = options.batch ?? 50;
    this.maxInFlight = options.maxInFlight ?? 100;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.onOutcome = options.onOutcome ?? (() => {});
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.poke();
      this.timer = setTimeout(tick, this.pollMs);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.claiming;
    await Promise.all(this.inFlight);
  }

  /**
   * Claims what is due while there are free send slots, and sends each as soon as it is claimed: a new
   * delivery does not wait for a round to end. Pokes that arrive while claiming make it claim once more.
   */
  poke = (): void => {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claimWhileRoom()
      .catch((error: unknown) => this.log.error({ err: error }, 'webhook dispatch failed'))
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  };

  private async claimWhileRoom(): Promise<void> {
    for (;;) {
      const room = Math.min(this.batch, this.maxInFlight - this.inFlight.size);
      if (room <= 0 || this.stopped) return;
      const claimed = await this.claim(room);
      for (const delivery of claimed) {
        const sending: Promise<void> = this.deliver(delivery)
          .catch((error: unknown) => this.log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery not recorded'))
          .finally(() => {
            this.inFlight.delete(sending);
            // A full claim may have left more due behind it: look again now that a slot is free.
            if (claimed.length === room) this.poke();
          });
        this.inFlight.add(sending);
      }
      if (claimed.length < room) break;
    }
    await this.purgeDaily();
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.now();
    return this.deliveries.claimDue(now, new Date(now.getTime() + this.leaseMs), limit, randomUUID());
  }

  /** Rounds until nothing due is left, each sent and recorded before the next (tests drive this with their clock). */
  async drain(): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimed = await this.runOnce();
      sent += claimed;
      if (claimed < this.batch || this.stopped) break;
    }
    await this.purgeDaily();
    return sent;
  }

  /** One round: claim a batch, send it all at once, record each outcome. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(this.batch);
    await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
    return claimed.length;
  }

  /** "Probar" and "Reenviar": one delivery sent now, its row as it ends; 'busy' if a replica is sending it. */
  async sendNow(userId: string, endpointId: string, deliveryId: string): Promise<LoggedDelivery | 'busy' | undefined> {
    const now = this.now();
    const claimed = await this.deliveries.claimOne(userId, endpointId, deliveryId, now, new Date(now.getTime() + this.leaseMs), randomUUID());
    if (!claimed || claimed === 'busy') return claimed;
    await this.deliver(claimed);
    return this.deliveries.find(userId, deliveryId);
  }

  /**
   * One attempt under a span of its own (tracing on), linked to the span that wrote the delivery: the
   * receiver's host, the event type, the attempt and how it ended; never the URL's path or query (a
   * receiver's token often lives there), the body or the signature. Recording the outcome hangs under it.
   */
  private deliver(delivery: ClaimedDelivery): Promise<void> {
    const attributes = () => ({
      'server.address': hostOf(delivery.url),
      'asistente.webhook.event_type': delivery.type,
      'asistente.webhook.attempt': delivery.attempts,
    });
    return traceLinkedWork('deliver webhook', { kind: 'client', attributes, linkTo: delivery.traceparent }, async (notes) => {
      const { outcome, result } = await this.attempt(delivery);
      notes.set({ 'asistente.webhook.outcome': outcome, ...(result.status === null ? {} : { 'http.response.status_code': result.status }) });
      if (outcome !== 'delivered') notes.fail(result.status === null ? 'no answer' : `HTTP ${result.status}`);
    });
  }

  private async attempt(delivery: ClaimedDelivery): Promise<{ outcome: DeliveryOutcome; result: SendResult }> {
    let result: SendResult;
    try {
      const secret = this.secrets.open(delivery.secretEnc, this.endpoints.secretContext(delivery.userId));
      const headers = signedHeaders(secret, delivery.id, Math.floor(this.now().getTime() / 1000), delivery.body);
      result = await this.sender.send(delivery.url, headers, delivery.body);
    } catch (error) {
      this.log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery could not be attempted');
      result = { status: null, latencyMs: 0, error: 'No se pudo preparar la entrega' };
    }
    const outcome = result.error === null ? await this.recordDelivered(delivery, result) : await this.record(delivery, result);
    this.onOutcome(outcome);
    return { outcome, result };
  }

  /**
   * Successes, the common case, are recorded together: whichever arrive while a write is under way go in
   * the next one, one statement for all, so hundreds a second do not hold a connection each.
   */
  private recordDelivered(delivery: ClaimedDelivery, result: SendResult): Promise<DeliveryOutcome> {
    return new Promise((resolve, reject) => {
      this.delivered.push({ delivery, result, done: () => resolve('delivered'), failed: reject });
      this.flushing ??= this.flushDelivered();
    });
  }

  private async flushDelivered(): Promise<void> {
    while (this.delivered.length > 0) {
      const batch = this.delivered.splice(0, 500);
      try {
        await this.sql.begin(async (tx) => {
          await this.deliveries.recordDelivered(
            tx,
            batch.map(({ delivery, result }) => ({ id: delivery.id, claimId: delivery.claimId, responseStatus: result.status, latencyMs: result.latencyMs })),
          );
          const healthy = [...new Set(batch.filter(({ delivery }) => delivery.type !== WEBHOOK_TEST_TYPE).map(({ delivery }) => delivery.endpointId))];
          if (healthy.length > 0) await tx`update webhooks.endpoints set failing_since = null where id = any(${tx.array(healthy)}::uuid[]) and failing_since is not null`;
        });
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.failed(error);
      }
    }
    this.flushing = undefined;
  }

  /**
   * A failed attempt and its endpoint's health in one transaction: it schedules the next attempt (or gives up past the day's window) and, when the
   * endpoint has failed for a whole day, disables it and drops what waits for it.
   */
  private record(delivery: ClaimedDelivery, result: SendResult): Promise<DeliveryOutcome> {
    const now = this.now();
    const test = delivery.type === WEBHOOK_TEST_TYPE;
    const outcome = { responseStatus: result.status, latencyMs: result.latencyMs, error: result.error };
    return this.sql.begin(async (tx) => {
      const next = test ? undefined : nextAttemptAt(delivery.createdAt, delivery.attempts, now);
      const recorded = await this.deliveries.record(tx, delivery, outcome, next ? 'pending' : 'failed', next ?? null);
      if (test || !recorded) return next ? 'retrying' : 'failed';
      // Failing since the first delivery it did not take: the day's retries of one event reach the threshold.
      const [endpoint] = await tx<{ failingSince: Date }[]>`
        update webhooks.endpoints set failing_since = coalesce(failing_since, ${delivery.createdAt})
        where id = ${delivery.endpointId} returning failing_since`;
      if (endpoint && now.getTime() - endpoint.failingSince.getTime() >= WEBHOOK_RETRY_WINDOW_MS) {
        const disabled = await tx`
          update webhooks.endpoints set enabled = false, disabled_reason = ${`${DISABLED_AFTER_FAILURES} (${result.error})`}, updated_at = ${now}
          where id = ${delivery.endpointId} and enabled returning id`;
        if (disabled.length > 0) {
          await this.deliveries.failPending(tx, delivery.endpointId, 'No enviada: el webhook se desactivó');
          this.log.warn({ endpointId: delivery.endpointId }, 'webhook endpoint disabled after a day of failures');
        }
      }
      return next ? 'retrying' : 'failed';
    });
  }

  /** The log keeps 30 days: once a day per process (idempotent; any replica may do it), in batches. */
  private async purgeDaily(): Promise<void> {
    const now = this.now().getTime();
    if (now - this.lastPurge < DAY_MS && this.lastPurge !== 0) return;
    this.lastPurge = now;
    await this.purge();
  }

  async purge(): Promise<number> {
    const before = new Date(this.now().getTime() - WEBHOOK_DELIVERY_RETENTION_DAYS * DAY_MS);
    let purged = 0;
    for (;;) {
      const n = await this.deliveries.purge(before, PURGE_BATCH);
      purged += n;
      if (n < PURGE_BATCH) return purged;
    }
  }
}
