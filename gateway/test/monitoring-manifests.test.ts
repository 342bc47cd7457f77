import { Ajv } from 'ajv';
import t from 'tap';
import { parse, parseAllDocuments } from 'yaml';
import { ROUTES } from '../src/routing-table.js';
import { dashboard, metricNamesIn, monitoringQueries, read, ruleGroups } from './monitoring/queries.js';

/**
 * The monitoring in deploy/ (issue 23), checked without Prometheus or a cluster: the compose scrape
 * configuration reaches every process on its metrics port, the Prometheus Operator objects (CRDs that
 * kubernetes-models does not know) against a minimal schema of their own, the alerts the same for compose
 * and Kubernetes, and every Deployment and Service with its metrics port. Whether the queries name metrics
 * the processes serve is checked against live processes in metrics-distributed.test.ts.
 */
const METRICS_PORT = 9464;
const PROCESS_NAMES = [...ROUTES.map((r) => r.name), 'gateway'].sort();

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
}

const docs = (path: string): K8sObject[] =>
  parseAllDocuments(read(path))
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);

const ajv = new Ajv({ strict: false, allErrors: true });

const ruleSchema = {
  type: 'object',
  required: ['alert', 'expr', 'labels', 'annotations'],
  additionalProperties: false,
  properties: {
    alert: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
    expr: { type: 'string', minLength: 1 },
    for: { type: 'string', pattern: '^[0-9]+(ms|s|m|h|d)$' },
    labels: { type: 'object', required: ['severity'], properties: { severity: { enum: ['critical', 'warning', 'info'] } }, additionalProperties: { type: 'string' } },
    annotations: { type: 'object', required: ['summary', 'description'], additionalProperties: { type: 'string' } },
  },
};
const groupsSchema = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['name', 'rules'],
    additionalProperties: false,
    properties: { name: { type: 'string', minLength: 1 }, rules: { type: 'array', minItems: 1, items: ruleSchema } },
  },
};
const metadataSchema = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, labels: { type: 'object' } } };

/** monitoring.coreos.com/v1 ServiceMonitor, the fields the Prometheus Operator needs and their types. */
const serviceMonitorSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'monitoring.coreos.com/v1' },
    kind: { const: 'ServiceMonitor' },
    metadata: metadataSchema,
    spec: {
      type: 'object',
      required: ['selector', 'endpoints'],
      additionalProperties: false,
      properties: {
        selector: { type: 'object', required: ['matchLabels'], properties: { matchLabels: { type: 'object', additionalProperties: { type: 'string' } } } },
        endpoints: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['port'],
            additionalProperties: false,
            properties: {
              port: { type: 'string' },
              path: { type: 'string', pattern: '^/' },
              interval: { type: 'string', pattern: '^[0-9]+(s|m)$' },
              scrapeTimeout: { type: 'string', pattern: '^[0-9]+(s|m)$' },
            },
          },
        },
      },
    },
  },
};
const prometheusRuleSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'monitoring.coreos.com/v1' },
    kind: { const: 'PrometheusRule' },
    metadata: metadataSchema,
    spec: { type: 'object', required: ['groups'], additionalProperties: false, properties: { groups: groupsSchema } },
  },
};

t.test('compose: Prometheus scrapes every process on its metrics port; Prometheus and Grafana only in the monitoring profile', async (t) => {
  const config = parse(read('deploy/prometheus/prometheus.yml')) as {
    rule_files: string[];
    scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; type: string; port: number }[] }[];
  };
  const [job] = config.scrape_configs;
  const [discovery] = job?.dns_sd_configs ?? [];
  t.same([...(discovery?.names ?? [])].sort(), PROCESS_NAMES, 'every process of the distributed topology is scraped');
  t.equal(discovery?.port, METRICS_PORT);
  t.equal(discovery?.type, 'A', 'each replica behind a compose service name is its own target');
  t.same(config.rule_files, ['/etc/prometheus/rules/*.yml']);

  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; profiles?: string[]; ports?: string[]; volumes?: string[] }>;
  };
  for (const name of PROCESS_NAMES) {
    const service = compose.services[name];
    t.equal(service?.environment?.METRICS_PORT, String(METRICS_PORT), `${name}: METRICS_PORT=${METRICS_PORT}`);
    t.notOk(service?.ports?.some((p) => p.includes(String(METRICS_PORT))), `${name}: the metrics port is not published`);
    t.notOk(service?.profiles, `${name} starts with a plain docker compose up`);
  }
  for (const name of ['prometheus', 'grafana']) {
    t.same(compose.services[name]?.profiles, ['monitoring'], `${name} only with --profile monitoring`);
    t.ok(compose.services[name]?.ports?.every((p) => p.startsWith('127.0.0.1:')), `${name} listens on the host's loopback only`);
  }
  t.ok(compose.services.prometheus?.volumes?.includes('./deploy/prometheus/rules:/etc/prometheus/rules:ro'), 'the alert rules are loaded');
  t.ok(compose.services.grafana?.volumes?.includes('./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro'), 'the dashboard is provisioned');
  const provider = parse(read('deploy/grafana/provisioning/dashboards/dashboards.yml')) as { providers: { options: { path: string } }[] };
  t.equal(provider.providers[0]?.options.path, '/var/lib/grafana/dashboards');
});

t.test('alerts: valid rules covering what the issue asks, the same for compose and Kubernetes', async (t) => {
  const groups = ruleGroups();
  t.ok(ajv.validate(groupsSchema, groups), `rule groups are valid: ${ajv.errorsText(ajv.errors)}`);
  t.notOk(ajv.validate(groupsSchema, [{ name: 'x', rules: [{ alert: 'X', expr: 'up', labels: {} }] }]), 'the schema refuses a rule without severity or annotations');
  const alerts = groups.flatMap((group) => group.rules);
  const reading = (metric: string) => alerts.filter((rule) => metricNamesIn(rule.expr).includes(metric)).map((rule) => rule.alert);
  t.ok(reading('asistente_consumer_pending').length > 0, 'consumer lag');
  t.match(alerts.find((rule) => rule.expr.includes('asistente_outbox_oldest_age_seconds'))?.expr, /> 60$/, 'outbox older than a minute');
  t.ok(alerts.some((rule) => rule.expr.includes('status=~"5.."')), '5xx rate');
  t.ok(reading('asistente_whatsapp_accounts_down').length > 0, 'WhatsApp accounts disconnected');
  t.ok(reading('asistente_mail_sync_lag_seconds').length > 0, 'mail sync stalled');
  t.ok(reading('asistente_ai_budget_reached_accounts').length > 0, 'AI daily budget reached');
  t.ok(reading('asistente_webhook_oldest_due_seconds').length > 0, 'webhook deliveries late (the webhooks service came after the issue)');

  const [rule] = docs('deploy/k8s/monitoring/prometheusrule.yaml');
  t.ok(ajv.validate(prometheusRuleSchema, rule), `PrometheusRule is valid: ${ajv.errorsText(ajv.errors)}`);
  t.same((rule?.spec as { groups: unknown }).groups, groups, 'the PrometheusRule holds the compose rules, unchanged');
});

t.test('Kubernetes: a ServiceMonitor over every Service, each with its metrics port', async (t) => {
  const [monitor] = docs('deploy/k8s/monitoring/servicemonitor.yaml');
  t.ok(ajv.validate(serviceMonitorSchema, monitor), `ServiceMonitor is valid: ${ajv.errorsText(ajv.errors)}`);
  t.notOk(ajv.validate(serviceMonitorSchema, { ...monitor, spec: { selector: {}, endpoints: [{ port: 9464 }] } }), 'the schema refuses a broken ServiceMonitor');
  const spec = monitor?.spec as { selector: { matchLabels: Record<string, string> }; endpoints: { port: string; path: string }[] };
  t.same(spec.endpoints.map((e) => [e.port, e.path]), [['metrics', '/metrics']]);
  const kustomization = parse(read('deploy/k8s/monitoring/kustomization.yaml')) as { resources: string[]; namespace: string };
  t.same(kustomization.resources.sort(), ['prometheusrule.yaml', 'servicemonitor.yaml']);
  t.equal(kustomization.namespace, 'mi-asistente');

  for (const name of PROCESS_NAMES) {
    const objects = docs(`deploy/k8s/${name}.yaml`);
    const service = objects.find((o) => o.kind === 'Service');
    const matches = Object.entries(spec.selector.matchLabels).every(([key, value]) => service?.metadata.labels?.[key] === value);
    t.ok(matches, `${name}: the ServiceMonitor selects its Service`);
    const ports = (service?.spec as { ports: { name: string; port: number; targetPort: string }[] }).ports;
    t.ok(ports.some((p) => p.name === 'metrics' && p.port === METRICS_PORT && p.targetPort === 'metrics'), `${name}: Service port metrics`);
    const deployment = objects.find((o) => o.kind === 'Deployment');
    const [container] = (deployment?.spec as { template: { spec: { containers: { ports: { name: string; containerPort: number }[]; env: { name: string; value: string }[] }[] } } })
      .template.spec.containers;
    t.ok(container?.ports.some((p) => p.name === 'metrics' && p.containerPort === METRICS_PORT), `${name}: containerPort metrics`);
    t.equal(container?.env.find((e) => e.name === 'METRICS_PORT')?.value, String(METRICS_PORT), `${name}: METRICS_PORT`);
  }
  const ingress = docs('deploy/k8s/ingress.yaml')[0];
  t.notMatch(JSON.stringify(ingress), /metrics|9464/, 'the Ingress never routes to a metrics port');
});

t.test('the Grafana dashboard: RED per process, events and integrations, every panel on the chosen Prometheus', async (t) => {
  const board = dashboard();
  t.equal(board.uid, 'mi-asistente');
  t.ok(board.templating.list.some((v) => v.name === 'datasource' && v.type === 'datasource'));
  const rows = board.panels.filter((p) => p.type === 'row').map((p) => p.title);
  t.same(rows, ['Requests (RED per process)', 'Processes', 'Events', 'Integrations']);
  for (const panel of board.panels.filter((p) => p.type !== 'row')) {
    t.ok(panel.targets && panel.targets.length > 0, `"${panel.title}" has a query`);
    t.equal(panel.datasource?.uid, '${datasource}', `"${panel.title}" reads the chosen Prometheus`);
  }
  const names = new Set(monitoringQueries().flatMap((q) => metricNamesIn(q.expr)));
  for (const name of ['asistente_http_requests_total', 'asistente_http_request_duration_seconds_bucket', 'asistente_outbox_waiting', 'asistente_relay_published_total', 'asistente_consumer_redelivered', 'asistente_events_parked', 'asistente_whatsapp_accounts', 'asistente_mail_idle_sessions', 'asistente_calendar_push_channels', 'asistente_provider_calls_total', 'asistente_ai_tokens_total', 'asistente_webhook_deliveries_total', 'asistente_webhook_deliveries_due', 'nodejs_eventloop_lag_p99_seconds', 'asistente_db_connections']) {
    t.ok(names.has(name), `a query reads ${name}`);
  }
  t.same(metricNamesIn('sum by (process, status) (rate(asistente_http_requests_total{status=~"5..",process="x"}[5m]))'), ['asistente_http_requests_total'], 'label names and values are not taken for metrics');
});
