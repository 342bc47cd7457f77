// Keyword rules, as the README documents them: whole words, case- and accent-insensitive, the longest keyword
// wins, at most one answer per incoming message.

/** Lower case without accents: the form keywords are compared (and kept unique) in. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `keyword` appears in `text` as whole words (letters or digits on neither side). */
export function containsWord(text: string, keyword: string): boolean {
  const folded = fold(keyword);
  if (!folded) return false;
  const spaced = escapeRegExp(folded).replace(/\s+/g, '\\s+');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${spaced}($|[^\\p{L}\\p{N}])`, 'u').test(fold(text));
}

/** The rule that answers `text`: the longest matching keyword, the oldest rule on a tie; undefined if none. */
export function bestRule<T extends { keyword: string; createdAt: Date }>(text: string, rules: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const rule of rules) {
    if (!containsWord(text, rule.keyword)) continue;
    const longer = best === undefined || fold(rule.keyword).length > fold(best.keyword).length;
    const tieButOlder = best !== undefined && fold(rule.keyword).length === fold(best.keyword).length && rule.createdAt < best.createdAt;
    if (longer || tieButOlder) best = rule;
  }
  return best;
}
