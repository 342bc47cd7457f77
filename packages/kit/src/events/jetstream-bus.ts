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
const PUBLISH_WINDOW = 100;
const CONSUMER_BATCH = 500;

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

  /** Acks are awaited in windows: awaiting each publish caps at a few thousand events/s. */
  async publish(events: EventEnvelope[]): Promise<void> {
    const js = this.js;
    if (!js || !this.isReady()) throw new Error('NATS is not connected');
    for (let i = 0; i < events.length; i += PUBLISH_WINDOW) {
      await Promise.all(
        events
          .slice(i, i + PUBLISH_WINDOW)
          .map((e) => js.publish(this.subject(e.type), JSON.stringify(e), { msgID: e.id, timeout: 5000 })),
      );
    }
  }

  async subscribe(durableName: string, handler: EventHandler): Promise<void> {
    await this.connecting;
    if (!this.jsm || !this.js) throw new Error('NATS is not connected');
    await this.jsm.consumers.add(this.options.stream, {
      durable_name: durableName,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: (this.options.ackWaitMs ?? 30_000) * NANOS_PER_MS,
      max_ack_pending: 4 * CONSUMER_BATCH,
    });
    const consumer = await this.js.consumers.get(this.options.stream, durableName);
    const messages = await consumer.consume({ max_messages: 2 * CONSUMER_BATCH });
    // Whatever arrived while the previous batch was being applied forms the
    // next one: no waiting for a batch to fill, one transaction per batch.
    const waiting: JsMsg[] = [];
    let applying: Promise<void> | undefined;
    const applyWaiting = async () => {
      while (waiting.length > 0 && !this.closed) await this.deliver(waiting.splice(0, CONSUMER_BATCH), handler);
      applying = undefined;
    };
    void (async () => {
      try {
        for await (const msg of messages) {
          waiting.push(msg);
          applying ??= applyWaiting();
          // Bounded memory: stop pulling while a full batch is already waiting.
          if (waiting.length >= CONSUMER_BATCH) await applying;
        }
      } catch (error) {
        if (!this.closed) this.options.log.error({ err: error, consumer: durableName }, 'event consumer stopped');
      }
    })();
  }

  /** Ack the batch after the handler succeeded; nak it (retry soon) when it failed; term what is not JSON. */
  private async deliver(msgs: JsMsg[], handler: EventHandler): Promise<void> {
    const { log } = this.options;
    const events: EventEnvelope[] = [];
    const delivered: JsMsg[] = [];
    for (const msg of msgs) {
      try {
        events.push(msg.json<EventEnvelope>());
        delivered.push(msg);
      } catch {
        log.warn({ subject: msg.subject, seq: msg.seq }, 'event is not JSON; dropped from delivery');
        msg.term();
      }
    }
    try {
      if (events.length > 0) await handler(events);
      for (const msg of delivered) msg.ack();
    } catch (error) {
      if (this.closed) return; // shutting down: unacked events come back after ack_wait
      log.error({ err: error, events: events.length }, 'event handler failed; redelivery scheduled');
      try {
        for (const msg of delivered) msg.nak(1000);
      } catch {
        // The connection went away; ack_wait brings the events back.
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
