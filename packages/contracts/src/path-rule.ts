/**
 * Whether a rule's path covers `path` (below /api, without the query): the path or any path below it (matched
 * at a segment boundary; a final `/` only says so); a `*` segment stands for any one segment. The
 * scope table and the role table both match this way, on a request's normalised path or a route's pattern.
 */
export function pathRuleMatches(rule: string, path: string): boolean {
  const want = rule.replace(/\/$/, '').split('/');
  const got = path.split('/');
  if (got.length < want.length) return false;
  return want.every((segment, i) => segment === got[i] || (segment === '*' && got[i] !== ''));
}
