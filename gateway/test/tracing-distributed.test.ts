import t from 'tap';
import { takeServerTurn } from '@asistente/kit/testing';
import { ROUTES } from '../src/routing-table.js';
import { DATABASE_URL, NATS_URL, distributedEnvironment, freePort, startNode, userWithToken, waitFor, waitReady } from './faults/support.js';
import { OtlpReceiver } from './tracing/otlp-receiver.js';
import { descendsFrom, waitForSpans, type SeenSpan } from './tracing/spans.js';

const SKIP = !DATABASE_URL || !NATS_URL ? 'set DATABASE_URL and NATS_URL to run the gateway and the services as separate processes' : false;
// A fleet of service processes on the shared server: never beside the one that needs it alone.
if (!SKIP) await takeServerTurn(t, 'beside-fleets', 300_000);

t.test('one trace from the gateway through contacts, its query, NATS and the analytics consumer', { skip: SKIP }, async (t) => {
  const receiver = await OtlpReceiver.start();
  t.teardown(() => receiver.close());
  const { databaseUrl, secret, env } = await distributedEnvironment(t, 'traces');
  const common = {
    ...env,
    // Only the standard variables: where to, in which protocol, and a short batch delay so spans come soon.
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  const start = async (name: string, entry: string, env: Record<string, string> = {}) => {
    const port = await freePort();
    const proc = startNode(t, name, entry, { ...common, ...env, PORT: String(port) });
    return { proc, port, url: `http://127.0.0.1:${port}` };
  };
  const [contacts, analytics] = await Promise.all([
    start('contacts', 'services/contacts/dist/server.js'),
    start('analytics', 'services/analytics/dist/server.js'),
  ]);
  await Promise.all([contacts, analytics].map(({ proc, port }) => waitReady(proc, port)));
  const dead = `http://127.0.0.1:${await freePort()}`;
  const gateway = await start('gateway', 'gateway/dist/main.js', {
    ...Object.fromEntries(ROUTES.map((r) => [r.urlVariable, dead])),
    CONTACTS_URL: contacts.url,
    ANALYTICS_URL: analytics.url,
  });
  await waitFor('the gateway up', () => fetch(`${gateway.url}/health`).then((r) => r.ok, () => false), 120_000);

  const { authorization } = await userWithToken(databaseUrl, secret);
  const created = await fetch(`${gateway.url}/api/contacts`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Rastro', lastName: 'Distribuido' }),
  });
  t.equal(created.status, 201, 'the contact is created through the gateway');

  // The analytics process runs two durable consumers of the same stream (rollups, and account erasure): the
  // rollups' span is the one this trace is about.
  const isRollupConsumer = (s: SeenSpan) => s.service === 'asistente-analytics' && s.kind === 'consumer' && s.name === 'consume analytics';
  const isGatewaySpan = (s: SeenSpan) => s.service === 'asistente-gateway' && s.kind === 'server' && s.attributes['url.path'] === '/api/contacts';
  // Each process exports on its own schedule: wait until every one of the expected spans has arrived.
  const expected: ((s: SeenSpan) => boolean)[] = [
    (s) => s.service === 'asistente-contacts' && s.kind === 'server',
    (s) => s.service === 'asistente-contacts' && s.name === 'db insert',
    (s) => s.service === 'asistente-contacts' && s.name === 'publish contacts.contact.created',
    (s) => isRollupConsumer(s),
  ];
  const complete = (spans: SeenSpan[]) => {
    const root = spans.find(isGatewaySpan);
    const inTrace = spans.filter((s) => s.traceId === root?.traceId);
    return root !== undefined && expected.every((found) => inTrace.some(found));
  };
  const all = await waitForSpans(() => receiver.spans, complete, 90_000);
  const root = all.find(isGatewaySpan);
  t.ok(root, "the gateway's server span arrived");
  if (!root) return;
  t.equal(root.name, 'POST /api/contacts', 'named by its route pattern');
  const trace = all.filter((s) => s.traceId === root.traceId);
  const service = trace.find((s) => s.service === 'asistente-contacts' && s.kind === 'server');
  const query = trace.find((s) => s.service === 'asistente-contacts' && s.name === 'db insert');
  const publish = trace.find((s) => s.service === 'asistente-contacts' && s.name === 'publish contacts.contact.created');
  const consume = trace.find(isRollupConsumer);
  t.equal(service?.name, 'POST /contacts', "the contacts service's span is in the trace");
  t.equal(service?.parentSpanId, root.spanId, "child of the gateway's span (traceparent over the proxy)");
  t.ok(query && service && descendsFrom(query, service, trace), "the service's insert is a query span under it");
  t.equal(query?.attributes['db.system.name'], 'postgresql');
  t.ok(publish && descendsFrom(publish, root, trace), "the relay's publish continues the request's trace");
  t.equal(publish?.kind, 'producer');
  t.ok(consume && publish && consume.parentSpanId === publish.spanId, "the analytics rollups' consumer span is a child of the publish (NATS headers)");
});
