import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { EventBus, EventHandler, SignalHandler } from './bus.js';
import type { EventEnvelope } from './envelope.js';
import { SignalFanout } from './signal-fanout.js';

export interface JetStreamBusOptions {
  url: string;
  stream: string;
  subjectPrefix: string;
  log: Logger;
  /** How long a delivered, unacknowledged event waits before redelivery (a consumer that died). */
  ackWaitMs?: number;
}

const NANOS_PER_MS = 1_000_000;
const CONSUMER_CONCURRENCY = 8;

/**
 * Events on a JetStream stream. The connection is made in the background and
 * retried forever, so a process boots and serves writes while NATS is down;
 * the outbox keeps the events until `isReady()`.
 */
export class JetStreamBus implements EventBus {
  readonly kind = 'jetstream' as const;
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private jsm: JetStreamManager | undefined;
  private streamReady = false;
  private readonly signals = new SignalFanout();
  private readonly signalTopics = new Set<string>();
  private readonly listening = new Set<string>();
  private closed = false;
  private readonly connecting: Promise<void>;

  constructor(private readonly options: JetStreamBusOptions) {
    this.connecting = this.connectForever().catch((error: unknown) => {
      options.log.error({ err: error }, 'NATS connection abandoned');
    });
  }

  subject(type: string): string {
    return `${this.options.subjectPrefix}.${type}`;
  }

  isReady(): boolean {
    return this.streamReady && this.nc !== undefined && !this.nc.isClosed();
  }

  async publish(event: EventEnvelope): Promise<void> {
    if (!this.js || !this.isReady()) throw new Error('NATS is not connected');
    await this.js.publish(this.subject(event.type), JSON.stringify(event), { msgID: event.id, timeout: 5000 });
  }

  async subscribe(durableName: string, handler: EventHandler): Promise<void> {
    await this.connecting;
    if (!this.jsm || !this.js) throw new Error('NATS is not connected');
    await this.jsm.consumers.add(this.options.stream, {
      durable_name: durableName,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: (this.options.ackWaitMs ?? 30_000) * NANOS_PER_MS,
      max_ack_pending: 1000,
    });
    const consumer = await this.js.consumers.get(this.options.stream, durableName);
    const messages = await consumer.consume({ max_messages: 500 });
    // Events are independent (consumers are idempotent and order-free), so a
    // few are applied at once: one at a time caps far below 1,000 events/s.
    const inFlight = new Set<Promise<void>>();
    void (async () => {
      try {
        for await (const msg of messages) {
          const work = this.deliver(msg, handler);
          inFlight.add(work);
          void work.finally(() => inFlight.delete(work));
          if (inFlight.size >= CONSUMER_CONCURRENCY) await Promise.race(inFlight);
        }
      } catch (error) {
        if (!this.closed) this.options.log.error({ err: error, consumer: durableName }, 'event consumer stopped');
      }
    })();
  }

  /** Ack after the handler succeeded; nak (retry soon) when it failed; term what is not even JSON. */
  private async deliver(msg: JsMsg, handler: EventHandler): Promise<void> {
    const { log } = this.options;
    let event: EventEnvelope;
    try {
      event = msg.json<EventEnvelope>();
    } catch {
      log.warn({ subject: msg.subject, seq: msg.seq }, 'event is not JSON; dropped from delivery');
      msg.term();
      return;
    }
    try {
      await handler(event);
      msg.ack();
    } catch (error) {
      if (this.closed) return; // shutting down: the unacked event comes back after ack_wait
      log.error({ err: error, subject: msg.subject }, 'event handler failed; redelivery scheduled');
      try {
        msg.nak(1000);
      } catch {
        // The connection went away; ack_wait brings the event back.
      }
    }
  }

  /** Outside the stream's `<prefix>.>` subjects: a signal must never be stored as an event. */
  private signalSubject(topic: string): string {
    return `${this.options.subjectPrefix}_signal.${topic}`;
  }

  signal(topic: string, payload: string): void {
    if (this.nc && !this.nc.isClosed()) this.nc.publish(this.signalSubject(topic), payload);
    else this.signals.emit(topic, payload);
  }

  onSignal(topic: string, handler: SignalHandler): () => void {
    this.signalTopics.add(topic);
    if (this.nc) this.listenForSignals(topic);
    return this.signals.add(topic, handler);
  }

  private listenForSignals(topic: string): void {
    if (!this.nc || this.listening.has(topic)) return;
    this.listening.add(topic);
    const subscription = this.nc.subscribe(this.signalSubject(topic));
    void (async () => {
      for await (const msg of subscription) this.signals.emit(topic, msg.string());
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.signals.clear();
    const nc = this.nc;
    if (!nc || nc.isClosed()) return;
    // drain() waits for a server; a NATS that is gone must not hold the shutdown.
    await Promise.race([nc.drain().catch(() => undefined), sleep(2000)]);
    if (!nc.isClosed()) await nc.close();
  }

  /** First connection retried here (not by the client) so close() can stop the attempts. */
  private async connectForever(): Promise<void> {
    const { log } = this.options;
    let attempt = 0;
    while (!this.closed) {
      try {
        this.nc = await connect({
          servers: this.options.url,
          name: 'mi-asistente',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
        });
        break;
      } catch (error) {
        if (attempt++ === 0) log.warn({ err: error, url: this.options.url }, 'NATS unreachable; events wait in the outbox');
        await sleep(Math.min(500 * attempt, 5000));
      }
    }
    if (!this.nc) return;
    if (this.closed) {
      await this.nc.close();
      return;
    }
    log.info({ url: this.options.url }, 'NATS connected');
    for (const topic of this.signalTopics) this.listenForSignals(topic);
    this.js = jetstream(this.nc);
    this.jsm = await jetstreamManager(this.nc);
    await this.ensureStream(this.jsm);
    this.streamReady = true;
    void (async () => {
      for await (const status of this.nc!.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnect') log.warn({ status: status.type }, 'NATS');
      }
    })();
  }

  private async ensureStream(jsm: JetStreamManager): Promise<void> {
    const { stream, subjectPrefix } = this.options;
    try {
      await jsm.streams.info(stream);
    } catch {
      await jsm.streams.add({
        name: stream,
        subjects: [`${subjectPrefix}.>`],
        duplicate_window: 10 * 60_000 * NANOS_PER_MS,
      });
    }
  }
}
