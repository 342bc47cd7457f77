/**
 * One run per key at a time: whoever asks while a key's work is running shares that run instead of starting
 * another (two screens opening at once sync a calendar once). The key is free again when the run settles.
 */
export class SingleFlight {
  private readonly running = new Map<string, Promise<void>>();

  /**
   * `fresh`: the caller needs a run that began after it asked ("Actualizar" after a change on the server), so
   * a run already under way is waited out, not shared: what it read may predate the change.
   */
  run(key: string, work: () => Promise<void>, fresh = false): Promise<void> {
    const running = this.running.get(key);
    if (!running) {
      const promise = work().finally(() => this.running.delete(key));
      this.running.set(key, promise);
      return promise;
    }
    if (!fresh) return running;
    return running.catch(() => undefined).then(() => this.run(key, work));
  }
}
