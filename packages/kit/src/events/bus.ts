import type { EventEnvelope } from './envelope.js';

/**
 * Consumers take events in batches (whatever has arrived, up to a few
 * hundred) so one transaction can apply many; resolving acknowledges the
 * whole batch, throwing has all of it delivered again.
 */
// What the handler resolves with is its own (a count, for its tests); only resolving or throwing matters here.
export type EventHandler = (events: EventEnvelope[]) => Promise<unknown>;
export type SignalHandler = (payload: string) => void;

/**
 * Where the outbox relay delivers events. JetStream in the distributed
 * topology, in-process when embedded; both de-duplicate by event id upstream
 * (JetStream msgID) or rely on idempotent consumers.
 */
export interface EventBus {
  readonly kind: 'memory' | 'jetstream';
  /**
   * Resolves once the bus accepted the events (JetStream: stored in the stream), in order. `traceparents`
   * (tracing on, from the relay) is each event's W3C trace context: carried beside the event (NATS
   * headers), never inside it, and continued by the consumer's span.
   */
  publish(events: EventEnvelope[], traceparents?: readonly (string | undefined)[]): Promise<void>;
  /** True when publishing can be attempted now (NATS connected). */
  isReady(): boolean;
  subscribe(durableName: string, handler: EventHandler): Promise<void>;
  /**
   * Fire-and-forget notices to every process (core NATS, nothing stored):
   * e.g. "this user's rollups changed", so whichever replica holds the
   * user's live connection can tell the browser.
   */
  signal(topic: string, payload: string): void;
  /** Returns the function that stops listening. */
  onSignal(topic: string, handler: SignalHandler): () => void;
  close(): Promise<void>;
}
