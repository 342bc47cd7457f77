import { consumeTraced } from '../observability/tracing/event-spans.js';
import type { EventBus, EventHandler, SignalHandler } from './bus.js';
import type { EventEnvelope } from './envelope.js';
import { SignalFanout } from './signal-fanout.js';

/** In-process delivery for the embedded topology: publish awaits every subscriber. */
export class MemoryBus implements EventBus {
  readonly kind = 'memory' as const;
  private readonly handlers = new Map<string, EventHandler>();
  private readonly signals = new SignalFanout();

  async publish(events: EventEnvelope[], traceparents?: readonly (string | undefined)[]): Promise<void> {
    for (const [durableName, handler] of this.handlers) await consumeTraced(durableName, events, traceparents, () => handler(events));
  }

  isReady(): boolean {
    return true;
  }

  async subscribe(durableName: string, handler: EventHandler): Promise<void> {
    this.handlers.set(durableName, handler);
  }

  signal(topic: string, payload: string): void {
    this.signals.emit(topic, payload);
  }

  onSignal(topic: string, handler: SignalHandler): () => void {
    return this.signals.add(topic, handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.signals.clear();
  }
}
