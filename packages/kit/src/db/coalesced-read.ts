/**
 * Concurrent reads of the same key share database round trips without ever answering from a read that began
 * before the caller asked: a caller arriving while a read is running waits for the next one, which starts
 * when the running one ends and serves everyone who queued meanwhile. Under load the database sees about one
 * read per key per round trip instead of one per request; a lone caller reads at once.
 */
export class CoalescedRead<V> {
  private readonly running = new Map<string, Promise<V>>();
  private readonly queued = new Map<string, Promise<V>>();

  read(key: string, load: () => Promise<V>): Promise<V> {
    const queued = this.queued.get(key);
    if (queued) return queued;
    const running = this.running.get(key);
    if (!running) return this.start(key, load);
    const next = running
      .catch(() => undefined)
      .then(() => {
        this.queued.delete(key);
        return this.start(key, load);
      });
    this.queued.set(key, next);
    return next;
  }

  /**
   * For a caller that needs no newer answer than a read already running (two screens opening at once): that
   * read is shared as it is; with none running, this is `read`.
   */
  share(key: string, load: () => Promise<V>): Promise<V> {
    return this.running.get(key) ?? this.read(key, load);
  }

  private start(key: string, load: () => Promise<V>): Promise<V> {
    const read = load().finally(() => {
      if (this.running.get(key) === read) this.running.delete(key);
    });
    this.running.set(key, read);
    return read;
  }
}
