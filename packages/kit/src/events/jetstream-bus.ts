import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { EventBus, EventHandler } from './bus.js';
import type { EventEnvelope } from './envelope.js';

export interface JetStreamBusOptions {
  url: string;
  stream: string;
  subjectPrefix: string;
  log: Logger;
}

const NANOS_PER_MS = 1_000_000;

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
      ack_wait: 30_000 * NANOS_PER_MS,
      max_ack_pending: 1000,
    });
    const consumer = await this.js.consumers.get(this.options.stream, durableName);
    const messages = await consumer.consume({ max_messages: 500 });
    void (async () => {
      for await (const msg of messages) {
        try {
          await handler(msg.json<EventEnvelope>());
          msg.ack();
        } catch (error) {
          this.options.log.error({ err: error, subject: msg.subject }, 'event handler failed; redelivery scheduled');
          msg.nak(1000);
        }
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
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
