/**
 * A map that forgets its least recently used entries once their total weight passes `capacity`: each
 * entry weighs 1 (a count of entries) unless `weigh` says otherwise (bytes, say). A Map keeps insertion
 * order, so the most recently used sits last and eviction takes from the front.
 */
export class LruMap<V> {
  private readonly entries = new Map<string, V>();
  private weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.weight -= this.weigh(value);
  }

  set(key: string, value: V): void {
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.weight -= this.weigh(previous);
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.weight += this.weigh(value);
    for (const [oldest, old] of this.entries) {
      if (this.weight <= this.capacity) break;
      this.entries.delete(oldest);
      this.weight -= this.weigh(old);
    }
  }
}
