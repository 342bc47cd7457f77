/** A rule's path as segments: its final `/` only says "and below", so it is dropped. */
function ruleSegments(rule: string): string[] {
  return rule.replace(/\/$/, '').split('/');
}

/**
 * A table of path rules, first match wins. A rule covers a path (below /api, without the query) when the path
 * is the rule's or below it (matched at a segment boundary; a final `/` only says so); a `*` segment stands
 * for any one segment. The scope table and the role table both match this way, on a request's normalised path
 * or a route's pattern. The gateway and every service ask on each request: the rules are split once here and
 * the path once per question, not every rule on every request.
 */
export class PathRuleTable<Rule extends { path: string }> {
  private readonly segments: readonly (readonly string[])[];

  constructor(private readonly rules: readonly Rule[]) {
    this.segments = rules.map((rule) => ruleSegments(rule.path));
  }

  first(path: string): Rule | undefined {
    const got = path.split('/');
    const index = this.segments.findIndex(
      (want) => got.length >= want.length && want.every((segment, i) => segment === got[i] || (segment === '*' && got[i] !== '')),
    );
    return index === -1 ? undefined : this.rules[index];
  }
}
