import type { ConversationEntry } from '@asistente/contracts';

/**
 * The thread after a fresh read of its newest page (oldest first): older entries already loaded stay in
 * front of it, and entries added here meanwhile (a reply sent while the read was under way) stay after it.
 * `gap` when the newest page does not reach back to what was shown: more arrived than a page holds, so the
 * older ones are dropped and loaded again on demand.
 */
export function withNewest(current: ConversationEntry[], newest: ConversationEntry[]): { entries: ConversationEntry[]; gap: boolean } {
  const first = newest[0];
  const last = newest.at(-1);
  if (!first || !last) return { entries: current, gap: false };
  const start = current.findIndex((e) => e.id === first.id);
  const ids = new Set(newest.map((e) => e.id));
  const later = current.slice(start + 1).filter((e) => !ids.has(e.id) && e.at >= last.at);
  if (start === -1) return { entries: [...newest, ...later], gap: current.length > 0 };
  return { entries: [...current.slice(0, start), ...newest, ...later], gap: false };
}

/** An entry added once: the thread may already hold it (a retried send answers the entry it stored the first time). */
export function withEntry(current: ConversationEntry[], entry: ConversationEntry): ConversationEntry[] {
  return current.some((e) => e.id === entry.id) ? current : [...current, entry];
}
