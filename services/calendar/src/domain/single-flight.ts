/**
 * One run per key at a time: whoever asks while a key's work is running shares that run instead of starting
 * another (two screens opening at once sync a calendar once). The key is free again when the run settles.
 */
export class SingleFlight {
  private readonly running = new Map<string, Promise<void>>();

  run(key: string, work: () => Promise<void>): Promise<void> {
    const running = this.running.get(key);
    if (running) return running;
    const promise = work().finally(() => this.running.delete(key));
    this.running.set(key, promise);
    return promise;
  }
}
