import { LruMap } from '@asistente/kit';

/** A search's count of matches (up to the cap and one more) and the owner's contacts version it was read at. */
export interface CountedTotal {
  version: string;
  matched: number;
}

/**
 * The totals of recent searches in this process, per user and filter, each with the version of the user's
 * contacts it was counted at (contacts.owner_counts.version, bumped by every statement that writes them).
 * Counting a term that matches most rows reads a thousand of them, twenty times what its page reads; while
 * the version holds, the same search (its next page, another sort, the screen reloaded) reads only its page.
 * The version is read with each page, so a write by any process makes the total counted again: a replica
 * never answers another's stale total. The least recently used are forgotten past `capacity`.
 */
export class SearchTotals {
  private readonly totals: LruMap<CountedTotal>;

  constructor(capacity = 10_000) {
    this.totals = new LruMap(capacity);
  }

  static key(userId: string, term: string, tag: string | undefined): string {
    return JSON.stringify([userId, term, tag ?? null]);
  }

  get(key: string): CountedTotal | undefined {
    return this.totals.get(key);
  }

  set(key: string, total: CountedTotal): void {
    this.totals.set(key, total);
  }
}
