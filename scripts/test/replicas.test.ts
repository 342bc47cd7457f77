import t from 'tap';
import { metricsPortBase, replicaPlan, servicePortBase } from '../lib/replicas.js';

const routes = [
  { name: 'contacts', port: 3002 },
  { name: 'email', port: 3005 },
];

t.test('REPLICAS starts N of each service on ports of their own; REPLICAS_<SERVICE> overrides one', async (t) => {
  t.same(
    replicaPlan(routes, {}).map(({ replicas }) => replicas),
    [[{ label: 'contacts', port: 3002, url: 'http://127.0.0.1:3002' }], [{ label: 'email', port: 3005, url: 'http://127.0.0.1:3005' }]],
    'one of each by default, on the service ports',
  );
  const plan = replicaPlan(routes, { REPLICAS: '2', REPLICAS_EMAIL: '1' });
  t.same(plan[0]!.replicas.map((r) => [r.label, r.port]), [['contacts-1', 3002], ['contacts-2', 3102]]);
  t.same(plan[1]!.replicas.map((r) => [r.label, r.port]), [['email', 3005]]);
  for (const bad of ['0', '-1', '1.5', 'dos', '10']) t.throws(() => replicaPlan(routes, { REPLICAS: bad }), /REPLICAS must be a whole number from 1 to 9/, `REPLICAS=${bad}`);
  t.throws(() => replicaPlan(routes, { REPLICAS_CONTACTS: '0' }), /REPLICAS_CONTACTS/);
});

t.test('METRICS_PORT_BASE (or METRICS_PORT) gives each replica a metrics port of its own', async (t) => {
  t.notOk('metricsPort' in replicaPlan(routes, {})[0]!.replicas[0]!, 'none without a base: no process serves metrics');
  const plan = replicaPlan(routes, { REPLICAS: '2', METRICS_PORT_BASE: '9400' });
  t.same(plan.flatMap(({ replicas }) => replicas.map((r) => [r.label, r.port, r.metricsPort])), [
    ['contacts-1', 3002, 9402],
    ['contacts-2', 3102, 9502],
    ['email-1', 3005, 9405],
    ['email-2', 3105, 9505],
  ]);
  t.equal(metricsPortBase({ METRICS_PORT: '9100' }), 9100, 'METRICS_PORT alone is the base (the gateway keeps it)');
  t.equal(metricsPortBase({ METRICS_PORT: '9100', METRICS_PORT_BASE: '9200' }), 9200);
  for (const bad of ['80', 'x', '65000']) t.throws(() => metricsPortBase({ METRICS_PORT_BASE: bad }), /METRICS_PORT_BASE must be a whole number/);
});

t.test('SERVICE_PORT_BASE moves every service port, keeping their distances (a second stack on one machine)', async (t) => {
  t.equal(servicePortBase({}), 3000);
  const plan = replicaPlan(routes, { REPLICAS_CONTACTS: '2', SERVICE_PORT_BASE: '23000', METRICS_PORT_BASE: '9400' });
  t.same(plan.flatMap(({ replicas }) => replicas.map((r) => [r.label, r.port, r.url, r.metricsPort])), [
    ['contacts-1', 23002, 'http://127.0.0.1:23002', 9402],
    ['contacts-2', 23102, 'http://127.0.0.1:23102', 9502],
    ['email', 23005, 'http://127.0.0.1:23005', 9405],
  ]);
  for (const bad of ['80', 'x', '65000']) t.throws(() => servicePortBase({ SERVICE_PORT_BASE: bad }), /SERVICE_PORT_BASE must be a whole number/);
});
