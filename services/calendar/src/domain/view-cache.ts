import type { Range } from './dates.js';

/**
 * Views of the mirror (a month's normalised events as JSON text) kept in this process, keyed by the versions of
 * the calendars they were built from. The versions come from the database on every request, so a change made
 * by any process (a sync, a write) is a different key: a replica never serves another's stale view.
 */
export class ViewCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  constructor(private readonly maxChars = 16 * 1024 * 1024) {}

  static key(userId: string, calendars: { id: string; version: string }[], range: Range): string {
    return JSON.stringify([userId, calendars.map((c) => [c.id, c.version]), range.from.getTime(), range.to.getTime()]);
  }

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: string): void {
    if (value.length > this.maxChars / 16) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.size -= previous.length;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.size += value.length;
    for (const [oldest, old] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(oldest);
      this.size -= old.length;
    }
  }
}
