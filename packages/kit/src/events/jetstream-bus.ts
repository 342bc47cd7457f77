import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
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
import { consumeTraced } from '../observability/tracing/event-spans.js';
import { tracingOn } from '../observability/tracing/trace-context.js';
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
  /**
   * The deployment this process belongs to (DEPLOYMENT_NAME): written on the stream it creates and
   * checked on the one it finds, so two deployments never share (and split) one stream.
   */
  deployment?: string;
  /** How often the stream and consumers are checked and recreated if NATS lost them. Default 2 s. */
  watchdogMs?: number;
}

/** The stream exists but belongs to another deployment (or its subjects are taken): this process must not start. */
export class StreamOwnershipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamOwnershipError';
  }
}

/** One durable consumer's backlog, as NATS reports it. */
export interface ConsumerLag {
  durable: string;
  /** Events in the stream not yet delivered to the consumer. */
  pending: number;
  /** Delivered, not yet acknowledged. */
  ackPending: number;
  /** Delivered more than once (a handler failed or a process died holding them). */
  redelivered: number;
}

const OWNER_PREFIX = 'mi-asistente deployment ';

function isNotFound(error: unknown): boolean {
  const text = String((error as { message?: unknown })?.message ?? error);
  return /not found/i.test(text);
}

/** The W3C trace context of a published event travels in this NATS header (never in the event itself). */
const TRACEPARENT_HEADER = 'traceparent';

function traceHeaders(traceparent: string | undefined): { headers?: ReturnType<typeof headers> } {
  if (!traceparent) return {};
  const h = headers();
  h.set(TRACEPARENT_HEADER, traceparent);
  return { headers: h };
}

function traceparentOf(msg: JsMsg): string | undefined {
  return msg.headers?.get(TRACEPARENT_HEADER) || undefined;
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
  private ownershipError: StreamOwnershipError | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  /** Durable consumers this process runs, re-created by the watchdog when NATS lost them. */
  private readonly consumers = new Map<string, { stop: () => void }>();

  constructor(private readonly options: JetStreamBusOptions) {
    this.connecting = this.connectForever().catch((error: unknown) => {
      if (error instanceof StreamOwnershipError) this.ownershipError = error;
      options.log.error({ err: error }, 'NATS connection abandoned');
    });
  }

  /**
   * Waits (at most `timeoutMs`) for the first connection and stream check: rejects when the stream
   * belongs to another deployment, so the process refuses to start; resolves otherwise, NATS up or not.
   */
  async started(timeoutMs = 3000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.connecting, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    if (this.ownershipError) throw this.ownershipError;
  }

  subject(type: string): string {
    return `${this.options.subjectPrefix}.${type}`;
  }

  isReady(): boolean {
    return this.streamReady && this.nc !== undefined && !this.nc.isClosed();
  }

  /** Acks are awaited in windows: awaiting each publish caps at a few thousand events/s. */
  async publish(events: EventEnvelope[], traceparents?: readonly (string | undefined)[]): Promise<void> {
    const js = this.js;
    if (!js || !this.isReady()) throw new Error('NATS is not connected');
    try {
      for (let i = 0; i < events.length; i += PUBLISH_WINDOW) {
        await Promise.all(
          events
            .slice(i, i + PUBLISH_WINDOW)
            .map((e, j) =>
              js.publish(this.subject(e.type), JSON.stringify(e), { msgID: e.id, timeout: 5000, ...traceHeaders(traceparents?.[i + j]) }),
            ),
        );
      }
    } catch (error) {
      // No stream behind the subjects any more (NATS came back empty): recreate it now, not at the next check.
      void this.check();
      throw error;
    }
  }

  /**
   * Starts a durable consumer and returns at once: it runs (and is re-created, should NATS lose it)
   * in the background, so a service starts and serves without NATS.
   */
  async subscribe(durableName: string, handler: EventHandler): Promise<void> {
    if (this.consumers.has(durableName)) throw new Error(`consumer ${durableName} already running`);
    const slot = { stop: () => {} };
    this.consumers.set(durableName, slot);
    void this.superviseConsumer(durableName, handler, slot);
  }

  private async superviseConsumer(durableName: string, handler: EventHandler, slot: { stop: () => void }): Promise<void> {
    const { log } = this.options;
    let failures = 0;
    await this.connecting;
    while (!this.closed) {
      try {
        await this.consumeOnce(durableName, handler, slot);
        failures = 0;
      } catch (error) {
        if (this.closed) return;
        if (failures++ === 0) log.warn({ err: error, consumer: durableName }, 'event consumer interrupted; retrying');
      }
      if (!this.closed) await sleep(Math.min(250 * 2 ** Math.min(failures, 5), 5000));
    }
  }

  /** One life of the consumer: create it if missing, consume until its iterator ends (stopped, deleted, lost). */
  private async consumeOnce(durableName: string, handler: EventHandler, slot: { stop: () => void }): Promise<void> {
    if (!this.jsm || !this.js || !this.streamReady) throw new Error('NATS is not connected');
    await this.jsm.consumers.add(this.options.stream, {
      durable_name: durableName,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: (this.options.ackWaitMs ?? 30_000) * NANOS_PER_MS,
      max_ack_pending: 4 * CONSUMER_BATCH,
    });
    const consumer = await this.js.consumers.get(this.options.stream, durableName);
    const messages = await consumer.consume({ max_messages: 2 * CONSUMER_BATCH });
    slot.stop = () => void messages.stop();
    // Whatever arrived while the previous batch was being applied forms the
    // next one: no waiting for a batch to fill, one transaction per batch.
    const waiting: JsMsg[] = [];
    let applying: Promise<void> | undefined;
    const applyWaiting = async () => {
      while (waiting.length > 0 && !this.closed) await this.deliver(durableName, waiting.splice(0, CONSUMER_BATCH), handler);
      applying = undefined;
    };
    for await (const msg of messages) {
      waiting.push(msg);
      applying ??= applyWaiting();
      // Bounded memory: stop pulling while a full batch is already waiting.
      if (waiting.length >= CONSUMER_BATCH) await applying;
    }
    await applying;
  }

  /** Ack the batch after the handler succeeded; nak it (retry soon) when it failed; term what is not JSON. */
  private async deliver(durableName: string, msgs: JsMsg[], handler: EventHandler): Promise<void> {
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
      if (events.length > 0) await consumeTraced(durableName, events, tracingOn() ? delivered.map(traceparentOf) : undefined, () => handler(events));
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

  /**
   * How far behind each durable consumer this process runs is (metrics, read at scrape time): events not
   * yet delivered, delivered and not yet acknowledged, and redelivered. Empty while NATS is unreachable.
   */
  async consumerLag(): Promise<ConsumerLag[]> {
    const jsm = this.jsm;
    if (!jsm || !this.isReady()) return [];
    const lags = await Promise.all(
      [...this.consumers.keys()].map(async (durable) => {
        const info = await jsm.consumers.info(this.options.stream, durable).catch(() => undefined);
        return info ? { durable, pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered } : undefined;
      }),
    );
    return lags.filter((lag): lag is ConsumerLag => lag !== undefined);
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
    clearInterval(this.watchdog);
    for (const slot of this.consumers.values()) slot.stop();
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
    // No API round trip here: on a busy NATS it can time out, and the stream check below (retried by the
    // watchdog until it succeeds) is the one that says whether events can flow.
    this.jsm = await jetstreamManager(this.nc, { checkAPI: false });
    this.watchdog = setInterval(() => void this.check(), this.options.watchdogMs ?? 2000);
    this.watchdog.unref();
    await this.check();
    void (async () => {
      for await (const status of this.nc!.status()) {
        if (status.type !== 'disconnect' && status.type !== 'reconnect') continue;
        log.warn({ status: status.type }, 'NATS');
        // Disconnected, nothing can be published: say so at once (the watchdog's check would wait for a timeout).
        if (status.type === 'disconnect') this.streamReady = false;
        else void this.check();
      }
    })();
  }

  /**
   * NATS that restarted empty (or had its stream or a consumer deleted): recreate what is missing and
   * restart the consumers, so events flow again without restarting any process. Runs every few seconds.
   */
  private check(): Promise<void> {
    // One check at a time: under load a check outlasts the interval, and piled-up checks swamp NATS's API.
    this.checking ??= this.checkOnce().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    const jsm = this.jsm;
    if (!jsm || this.closed || !this.nc || this.nc.isClosed()) return;
    try {
      await this.ensureStream(jsm);
      if (!this.streamReady) this.options.log.info({ stream: this.options.stream }, 'NATS stream ready');
      this.streamReady = true;
      for (const [name, slot] of this.consumers) {
        await jsm.consumers.info(this.options.stream, name).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
          this.options.log.warn({ consumer: name }, 'NATS consumer missing; recreating it');
          slot.stop();
        });
      }
    } catch (error) {
      if (error instanceof StreamOwnershipError) this.ownershipError = error;
      if (this.streamReady) this.options.log.warn({ err: error }, 'NATS stream check failed');
      this.streamReady = false;
    }
  }

  private async ensureStream(jsm: JetStreamManager): Promise<void> {
    const { stream, subjectPrefix, deployment } = this.options;
    const info = await jsm.streams.info(stream).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    if (info) {
      const description = info.config.description ?? '';
      const owner = description.startsWith(OWNER_PREFIX) ? description.slice(OWNER_PREFIX.length) : undefined;
      if (deployment && owner !== undefined && owner !== deployment) {
        throw new StreamOwnershipError(
          `NATS stream ${stream} belongs to deployment "${owner}", not "${deployment}": give each deployment its own DEPLOYMENT_NAME`,
        );
      }
      return;
    }
    try {
      await jsm.streams.add({
        name: stream,
        subjects: [`${subjectPrefix}.>`],
        duplicate_window: 10 * 60_000 * NANOS_PER_MS,
        ...(deployment ? { description: `${OWNER_PREFIX}${deployment}` } : {}),
      });
    } catch (error) {
      if (/overlap/i.test(String((error as Error).message))) {
        throw new StreamOwnershipError(
          `NATS subjects ${subjectPrefix}.> are already taken by another stream (another deployment?): give each deployment its own DEPLOYMENT_NAME`,
        );
      }
      throw error;
    }
  }
}
