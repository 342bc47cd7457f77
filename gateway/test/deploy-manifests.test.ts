import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import t from 'tap';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICE_PORTS } from '@asistente/contracts';
import { distributedRequiredVariables, HARD_DEADLINE_MS } from '@asistente/kit';
import { ROUTES } from '../src/routing-table.js';
import { OPERATOR_CONNECTIONS } from '../../scripts/lib/connection-budget.js';

/**
 * The deploy manifests, checked in CI without a container engine (issue 16): docker-compose.yml against
 * the vendored Compose Specification schema, every object under deploy/k8s/ against the Kubernetes
 * schemas of `kubernetes-models`, and both against what the code needs: every process of the routing
 * table on its port, the variables the config schema marks as required outside embedded mode, the
 * sibling URLs each service asks, probes, resources and a grace period longer than the shutdown.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

type Env = Record<string, string>;
interface Process {
  name: string;
  port: number;
  command: string;
}

/** Every process of the distributed topology: the services of the routing table and the gateway. */
const PROCESSES: Process[] = [
  ...ROUTES.map((r) => ({ name: r.name, port: r.port, command: `services/${r.name}/dist/server.js` })),
  { name: 'gateway', port: 3000, command: 'gateway/dist/main.js' },
];

/** The `<NAME>_URL` a service's ServiceClient reads for each sibling it asks, found in its source. */
function siblingUrls(service: string): string[] {
  const dir = `${root}services/${service}/src`;
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const names = new Set<string>();
  for (const file of files) {
    const source = readFileSync(`${dir}/${file}`, 'utf8');
    // A sibling is asked through its route descriptors (`contactsRoutes.get`, `accountExportRoutes.ai`) or
    // probed by name (`available('teams')`).
    const asked = [...source.matchAll(/\b([a-z][a-zA-Z]*)Routes\.([a-z]+)/g)].map(([, owner, name]) => (owner === 'accountExport' ? name! : owner!));
    const probed = [...source.matchAll(/\bavailable\(\s*'([a-z]+)'/g)].map(([, name]) => name!);
    for (const name of [...asked, ...probed]) {
      if (name in SERVICE_PORTS && name !== service) names.add(name);
    }
  }
  return [...names].sort().map((name) => `${name.toUpperCase()}_URL`);
}

/** What each process cannot boot without, and the URLs it must find its peers at. */
function requirements(process: Process): { variables: string[]; urls: Record<string, string> } {
  const peers = process.name === 'gateway' ? ROUTES.map((r) => r.urlVariable) : siblingUrls(process.name);
  const urls = Object.fromEntries(
    peers.map((variable) => {
      const peer = ROUTES.find((r) => r.urlVariable === variable)!;
      return [variable, `http://${peer.name}:${peer.port}`];
    }),
  );
  return { variables: [...distributedRequiredVariables(), 'PORT'], urls };
}

t.test('the config schema marks what the distributed processes need', async (t) => {
  t.same(distributedRequiredVariables().sort(), ['DATABASE_URL', 'JWT_SECRET', 'NATS_URL', 'SECRETS_KEYS']);
  t.same(siblingUrls('ai'), ['ANALYTICS_URL', 'CALENDAR_URL', 'CONTACTS_URL', 'EMAIL_URL', 'INBOX_URL', 'WHATSAPP_URL'], 'the assistant asks six siblings');
  t.same(
    Object.fromEntries(ROUTES.filter((r) => ['calendar', 'whatsapp', 'email', 'teams'].includes(r.name)).map((r) => [r.name, r.port])),
    { calendar: 3003, whatsapp: 3004, email: 3005, teams: 3006 },
  );
});

t.test('docker-compose.yml', async (t) => {
  // YAML merge keys (<<) resolved first: the schema sees what compose sees.
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Env; stop_grace_period?: string; healthcheck?: { test?: string[] } }>;
  };
  // Its `$schema` names draft-07 by an address Ajv does not preload; Ajv's default dialect is draft-07.
  const { $schema: _dialect, ...schema } = JSON.parse(read('deploy/schemas/compose-spec.json')) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const valid = ajv.validate(schema, compose);
  t.ok(valid, `valid against the Compose Specification: ${ajv.errorsText(ajv.errors)}`);
  t.notOk(ajv.validate(schema, { ...compose, services: { auth: { ports: [{ target: 'http' }], restart: 42 } } }), 'the schema refuses a broken file');

  for (const process of PROCESSES) {
    const service = compose.services[process.name];
    if (!t.ok(service, `${process.name} is a compose service`) || !service) continue;
    t.same(service.command, ['node', process.command], `${process.name} runs its own entry point`);
    const env = service.environment ?? {};
    t.equal(env.PORT, String(process.port), `${process.name} listens on ${process.port}`);
    const { variables, urls } = requirements(process);
    for (const variable of variables) {
      // `${X:-}` leaves it empty when .env does: that is not "set". `${X:?…}` refuses to start instead.
      const value = env[variable];
      t.ok(value !== undefined && value !== '' && !/^\$\{[A-Z_]+:?-\}$/.test(value), `${process.name}: ${variable} is set`);
    }
    for (const [variable, url] of Object.entries(urls)) t.equal(env[variable], url, `${process.name}: ${variable}=${url}`);
    t.ok(service.healthcheck?.test?.join(' ').includes('/ready'), `${process.name}: healthcheck on /ready`);
    t.ok(graceSeconds(service.stop_grace_period) * 1000 > HARD_DEADLINE_MS, `${process.name}: stop_grace_period (${service.stop_grace_period ?? '10s default'}) outlasts the ${HARD_DEADLINE_MS} ms shutdown`);
  }
});

/** Compose durations as the manifests write them (`30s`, `1m`); compose's default is 10 s. */
function graceSeconds(duration: string | undefined): number {
  if (duration === undefined) return 10;
  const match = /^(\d+)(s|m)$/.exec(duration);
  if (!match) return 0;
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  data?: Env;
  stringData?: Env;
  spec?: DeploymentSpec;
}
interface Container {
  name: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
}
interface DeploymentSpec {
  template: { spec: { terminationGracePeriodSeconds?: number; containers: Container[] } };
}

const K8S_DIR = 'deploy/k8s/';
const k8sFiles = readdirSync(`${root}${K8S_DIR}`).filter((f) => f.endsWith('.yaml')).sort();
const objects: { file: string; object: K8sObject }[] = k8sFiles.flatMap((file) =>
  parseAllDocuments(read(`${K8S_DIR}${file}`))
    .map((doc) => doc.toJS({ maxAliasCount: -1 }) as K8sObject | null)
    .filter((object): object is K8sObject => object !== null)
    .map((object) => ({ file, object })),
);

t.test('every object under deploy/k8s/ validates against the Kubernetes schemas', async (t) => {
  for (const { file, object } of objects) {
    if (object.apiVersion.startsWith('kustomize.config.k8s.io/')) continue;
    const group = (await import(`kubernetes-models/${object.apiVersion}`)) as Record<string, new (data: unknown) => { validate(): void }>;
    const Model = group[object.kind];
    if (!t.ok(Model, `${file}: ${object.apiVersion} ${object.kind} is a known kind`) || !Model) continue;
    t.doesNotThrow(() => new Model(object).validate(), `${file}: ${object.kind} ${object.metadata.name} is valid`);
  }
  const { Deployment } = await import('kubernetes-models/apps/v1');
  const broken = { metadata: { name: 'x' }, spec: { selector: {}, template: { spec: { containers: [{ name: 'x', ports: [{ containerPort: 'http' }] }] } } } };
  t.throws(() => new Deployment(broken as never).validate(), 'the schemas refuse a broken Deployment');
});

t.test('kustomization.yaml lists every manifest but the secret template', async (t) => {
  const kustomization = objects.find((o) => o.object.kind === 'Kustomization')?.object as unknown as { resources: string[] };
  const expected = k8sFiles.filter((f) => f !== 'kustomization.yaml' && f !== 'secret.template.yaml');
  t.same([...kustomization.resources].sort(), expected);
});

t.test('each Deployment: its port, probes on /health and /ready, resources, grace period, environment', async (t) => {
  const kinds = (kind: string) => objects.filter((o) => o.object.kind === kind).map((o) => o.object);
  const configMap = kinds('ConfigMap')[0]?.data ?? {};
  const secret = kinds('Secret')[0]?.stringData ?? {};
  for (const process of PROCESSES) {
    const deployment = kinds('Deployment').find((d) => d.metadata.name === process.name);
    if (!t.ok(deployment, `${process.name} has a Deployment`) || !deployment?.spec) continue;
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    if (!container) continue;
    t.same(container.command, ['node', process.command], `${process.name} runs its own entry point`);
    const port = container.ports?.find((p) => p.containerPort === process.port);
    t.ok(port, `${process.name}: containerPort ${process.port}`);
    const service = kinds('Service').find((s) => s.metadata.name === process.name);
    t.ok(service, `${process.name} has a Service`);
    t.equal(container.readinessProbe?.httpGet?.path, '/ready', `${process.name}: readiness on /ready`);
    t.equal(container.livenessProbe?.httpGet?.path, '/health', `${process.name}: liveness on /health`);
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      t.ok(probe?.httpGet?.port === port?.name || probe?.httpGet?.port === process.port, `${process.name}: probe on the container's port`);
    }
    t.ok(container.resources?.requests?.cpu && container.resources.requests.memory && container.resources.limits?.memory, `${process.name}: requests and a memory limit`);
    // The preStop pause runs inside the grace period too, before SIGTERM.
    const grace = (pod.terminationGracePeriodSeconds ?? 30) * 1000;
    t.ok(grace > HARD_DEADLINE_MS + preStopMs(container), `${process.name}: terminationGracePeriodSeconds covers preStop + the ${HARD_DEADLINE_MS} ms shutdown`);
    const env: Env = {
      ...(container.envFrom?.some((s) => s.configMapRef) ? configMap : {}),
      ...(container.envFrom?.some((s) => s.secretRef) ? secret : {}),
      ...Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? 'from a reference'])),
    };
    t.equal(env.PORT, String(process.port), `${process.name}: PORT=${process.port}`);
    const { variables, urls } = requirements(process);
    for (const variable of variables) t.ok(env[variable], `${process.name}: ${variable} is set`);
    for (const [variable, url] of Object.entries(urls)) t.equal(env[variable], url, `${process.name}: ${variable}=${url}`);
  }
});

/**
 * postgres.js keeps the connections it opened, so under load every process holds its whole pool and its
 * LISTEN connection: together they must fit the database's max_connections, with the operator's room.
 */
const needed = (processes: { replicas: number; pool: number }[]) =>
  processes.reduce((sum, p) => sum + p.replicas * (p.pool + 1), OPERATOR_CONNECTIONS);
/** A compose value as the file writes it: `${X:-5}` is 5 when .env does not set X. */
const composeDefault = (value: string | undefined) => Number(/^\$\{[A-Z_]+:-(\d+)\}$/.exec(value ?? '')?.[1] ?? value);

t.test("every process's pool fits the database's connections, in compose and in Kubernetes", async (t) => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Env; deploy?: { replicas?: number } }>;
  };
  const maxConnections = Number(/max_connections=(\d+)/.exec(compose.services.postgres?.command?.join(' ') ?? '')?.[1]);
  const composeProcesses = PROCESSES.map(({ name }) => ({
    replicas: compose.services[name]?.deploy?.replicas ?? 1,
    pool: composeDefault(compose.services[name]?.environment?.DB_POOL_MAX),
  }));
  t.ok(composeProcesses.every((p) => p.pool >= 2), 'compose sets DB_POOL_MAX for every process');
  t.ok(needed(composeProcesses) <= maxConnections, `compose: ${needed(composeProcesses)} connections at most, postgres allows ${maxConnections}`);

  const configMap = objects.find((o) => o.object.kind === 'ConfigMap')!;
  const pool = Number(configMap.object.data?.DB_POOL_MAX);
  const required = Number(/max_connections (\d+) or more/.exec(read(`${K8S_DIR}${configMap.file}`))?.[1]);
  const autoscalers = objects.map((o) => o.object as unknown as { kind: string; spec?: { scaleTargetRef?: { name: string }; maxReplicas?: number } });
  const k8sProcesses = PROCESSES.map(({ name }) => {
    const deployment = objects.find((o) => o.object.kind === 'Deployment' && o.object.metadata.name === name)?.object as unknown as { spec?: { replicas?: number } };
    const autoscaler = autoscalers.find((a) => a.kind === 'HorizontalPodAutoscaler' && a.spec?.scaleTargetRef?.name === name);
    return { replicas: autoscaler?.spec?.maxReplicas ?? deployment?.spec?.replicas ?? 1, pool };
  });
  t.ok(required > 0, 'the ConfigMap says what max_connections the database needs');
  t.ok(needed(k8sProcesses) <= required, `Kubernetes: ${needed(k8sProcesses)} connections at most (autoscalers at their maximum), the ConfigMap asks ${required}`);
});

t.test('migrations run once before the processes, with DATABASE_URL', async (t) => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { command?: string[]; environment?: Env }> };
  t.same(compose.services.migrate?.command, ['node', 'packages/kit/dist/migrate-cli.js']);
  t.match(compose.services.migrate?.environment?.DATABASE_URL, /^postgres:\/\//);
  const job = objects.find((o) => o.object.kind === 'Job')?.object as unknown as { spec: { template: { spec: { containers: Container[] } } } };
  const [container] = job.spec.template.spec.containers;
  t.same(container?.command, ['node', 'packages/kit/dist/migrate-cli.js']);
  t.ok(container?.env?.some((e) => e.name === 'DATABASE_URL'), 'the Job reads DATABASE_URL');
});

function preStopMs(container: Container & { lifecycle?: { preStop?: { exec?: { command?: string[] } } } }): number {
  const command = container.lifecycle?.preStop?.exec?.command ?? [];
  return command[0] === 'sleep' ? Number(command[1]) * 1000 : 0;
}
