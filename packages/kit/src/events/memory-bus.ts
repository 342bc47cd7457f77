import type { EventBus, EventHandler } from './bus.js';
import type { EventEnvelope } from './envelope.js';

/** In-process delivery for the embedded topology: publish awaits every subscriber. */
export class MemoryBus implements EventBus {
  readonly kind = 'memory' as const;
  private readonly handlers = new Map<string, EventHandler>();

  async publish(event: EventEnvelope): Promise<void> {
    for (const handler of this.handlers.values()) await handler(event);
  }

  isReady(): boolean {
    return true;
  }

  async subscribe(durableName: string, handler: EventHandler): Promise<void> {
    this.handlers.set(durableName, handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
