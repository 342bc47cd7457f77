import type { SignalHandler } from './bus.js';

/** Local listeners per topic; a throwing listener does not stop the others. */
export class SignalFanout {
  private readonly listeners = new Map<string, Set<SignalHandler>>();

  add(topic: string, handler: SignalHandler): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  has(topic: string): boolean {
    return (this.listeners.get(topic)?.size ?? 0) > 0;
  }

  emit(topic: string, payload: string): void {
    for (const handler of this.listeners.get(topic) ?? []) {
      try {
        handler(payload);
      } catch {
        // A listener's failure is its own (a closed connection); the rest still hear the signal.
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
