/**
 * Fires a key's callback once the key has been quiet for a while: every schedule() of the same key restarts
 * its wait. The burst debounce of automatic answers runs on this, so tests can swap in a manual one.
 */
export interface QuietTimer {
  schedule(key: string, fire: () => Promise<void>): void;
  cancel(key: string): void;
  /** Drops every pending callback and waits for the ones already running. */
  close(): Promise<void>;
}

export class TimeoutQuietTimer implements QuietTimer {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly quietMs: number) {}

  schedule(key: string, fire: () => Promise<void>): void {
    this.cancel(key);
    const timer = setTimeout(() => {
      this.pending.delete(key);
      const run = fire().finally(() => this.running.delete(run));
      this.running.add(run);
    }, this.quietMs);
    timer.unref();
    this.pending.set(key, timer);
  }

  cancel(key: string): void {
    clearTimeout(this.pending.get(key));
    this.pending.delete(key);
  }

  async close(): Promise<void> {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await Promise.allSettled([...this.running]);
  }
}
