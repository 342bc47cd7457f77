import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const read = (path: string): string => readFileSync(`${root}${path}`, 'utf8');

export const DASHBOARD = 'deploy/grafana/dashboards/mi-asistente.json';
export const RULES = 'deploy/prometheus/rules/mi-asistente.yml';

export interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
export interface RuleGroup {
  name: string;
  rules: Rule[];
}
interface Panel {
  type: string;
  title: string;
  datasource?: { uid?: string };
  targets?: { expr: string; datasource?: { uid?: string } }[];
}

export function dashboard(): { uid: string; panels: Panel[]; templating: { list: { name: string; type: string }[] } } {
  return JSON.parse(read(DASHBOARD)) as ReturnType<typeof dashboard>;
}

export function ruleGroups(): RuleGroup[] {
  return (parse(read(RULES)) as { groups: RuleGroup[] }).groups;
}

/** Every PromQL expression the deploy files hold: the dashboard's panels and the alerting rules. */
export function monitoringQueries(): { where: string; expr: string }[] {
  const panels = dashboard()
    .panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `dashboard panel "${panel.title}"`, expr: target.expr })));
  const rules = ruleGroups().flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })));
  return [...panels, ...rules];
}

/**
 * The metric names an expression reads: the identifiers with a prefix the processes serve (the product's
 * `asistente_`, prom-client's `nodejs_` and `process_`). Functions, label names and label values
 * (`process`, `"5.."`) have none, so they are not taken for metrics.
 */
export function metricNamesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""');
  return [...new Set(withoutStrings.match(/\b(?:asistente|nodejs|process)_[a-z0-9_:]+/g) ?? [])];
}

/** What a `/metrics` answer names: each metric's `# TYPE` line. */
export function servedTypes(text: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(match[1]!, match[2]!);
  return types;
}

/** A name a query reads is served as is, or as a histogram's `_bucket`, `_sum` or `_count` series. */
export function isServed(name: string, types: Map<string, string>): boolean {
  if (types.has(name)) return true;
  const series = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (!series) return false;
  const type = types.get(series[1]!);
  return type === 'histogram' || (type === 'summary' && series[2] !== 'bucket');
}
