import type { EventEnvelope } from './envelope.js';

export type EventHandler = (event: EventEnvelope) => Promise<void>;

/**
 * Where the outbox relay delivers events. JetStream in the distributed
 * topology, in-process when embedded; both de-duplicate by event id upstream
 * (JetStream msgID) or rely on idempotent consumers.
 */
export interface EventBus {
  readonly kind: 'memory' | 'jetstream';
  /** Resolves once the bus accepted the event (JetStream: stored in the stream). */
  publish(event: EventEnvelope): Promise<void>;
  /** True when publishing can be attempted now (NATS connected). */
  isReady(): boolean;
  subscribe(durableName: string, handler: EventHandler): Promise<void>;
  close(): Promise<void>;
}
