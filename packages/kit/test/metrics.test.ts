import { randomUUID } from 'node:crypto';
import t from 'tap';
import { Type } from '@sinclair/typebox';
import { createEvent, createHttpApp, Metrics, outcomeOf, scrapeGauge, type Platform } from '../src/index.js';
import { createTestPlatform } from '../src/testing/index.js';

const ON = { METRICS_PORT: 0, HOST: '127.0.0.1' } as const;

async function scrape(platform: Platform, path = '/metrics'): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(`http://127.0.0.1:${platform.metricsPort}${path}`);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** The value of one sample line (`name{labels} value`), undefined when the line is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function appWithRoutes(platform: Platform) {
  const app = createHttpApp({ log: platform.log, bodyLimit: 1024 * 1024, metrics: platform.metrics });
  app.get('/api/contacts/:id', { schema: { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) } }, async (request) => ({ id: request.params.id }));
  app.get('/api/contacts', async () => ({ items: [] }));
  await app.ready();
  t.teardown(() => app.close());
  return app;
}

t.test('METRICS_PORT set: its own listener answers Prometheus text at /metrics, and nothing else', async (t) => {
  const platform = await createTestPlatform(t, { config: ON });
  t.type(platform.metricsPort, 'number');
  t.not(platform.metricsPort, platform.config.PORT);
  const { status, type, text } = await scrape(platform);
  t.equal(status, 200);
  t.match(type, /^text\/plain; version=0\.0\.4/);
  for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_gc_duration_seconds', 'asistente_db_pool_max']) {
    t.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `names ${name}`);
  }
  t.match(text, /process="test"/, 'every series names its process');
  t.equal((await scrape(platform, '/')).status, 404, 'only /metrics is served');
  t.equal((await scrape(platform, '/health')).status, 404);
  if (platform.db.kind === 'postgres') t.match(text, /^asistente_db_connections\{state="[a-z_]+",process="test"\} \d+$/m, "the process's own connections by state");
});

t.test('METRICS_PORT unset: no listener, no request hook, no process metrics', async (t) => {
  const platform = await createTestPlatform(t);
  t.equal(platform.metricsPort, undefined);
  t.equal(platform.metrics.enabled, false);
  const app = await appWithRoutes(platform);
  await app.inject({ url: `/api/contacts/${randomUUID()}` });
  const text = await platform.metrics.text();
  t.notMatch(text, /asistente_http_requests_total/, 'requests are not counted');
  t.notMatch(text, /nodejs_eventloop_lag_seconds/, 'no default metrics collected');
});

t.test('requests are labelled by route pattern, method and status: never an id, an email or a raw URL', async (t) => {
  const platform = await createTestPlatform(t, { config: ON });
  const app = await appWithRoutes(platform);
  const id = randomUUID();
  t.equal((await app.inject({ url: `/api/contacts/${id}` })).statusCode, 200);
  t.equal((await app.inject({ url: '/api/contacts/not-a-uuid' })).statusCode, 400);
  t.equal((await app.inject({ url: '/api/contacts?q=ana@example.com' })).statusCode, 200);
  t.equal((await app.inject({ url: `/api/unknown/${id}/ana@example.com` })).statusCode, 404);
  // The public app never serves the metrics, whatever the path.
  t.equal((await app.inject({ url: '/metrics' })).statusCode, 404);
  const { text } = await scrape(platform);
  t.equal(sample(text, 'asistente_http_requests_total{route="/api/contacts/:id",method="GET",status="200",process="test"}'), 1);
  t.equal(sample(text, 'asistente_http_requests_total{route="/api/contacts/:id",method="GET",status="400",process="test"}'), 1);
  t.equal(sample(text, 'asistente_http_requests_total{route="/api/contacts",method="GET",status="200",process="test"}'), 1);
  t.equal(sample(text, 'asistente_http_requests_total{route="unmatched",method="GET",status="404",process="test"}'), 2);
  t.equal(sample(text, 'asistente_http_request_duration_seconds_count{process="test",route="/api/contacts/:id",method="GET",status="200"}'), 1);
  t.notMatch(text, id, 'no id in any label');
  t.notMatch(text, /@/, 'no email in any label');
  t.notMatch(text, /not-a-uuid|\/metrics"|q=/, 'no raw URL in any label');
});

t.test('the outbox gauges see a waiting row and its age; the relay counts what it publishes', async (t) => {
  const platform = await createTestPlatform(t, { config: ON });
  const outbox = platform.outbox('contacts');
  await platform.relay.stop();
  const occurredAt = new Date(Date.now() - 90_000).toISOString();
  const event = { ...createEvent('contacts.contact.deleted', randomUUID(), { contactId: randomUUID() }), occurredAt };
  await platform.db.sql.begin((tx) => outbox.append(tx, [event]));
  const { text } = await scrape(platform);
  t.equal(sample(text, 'asistente_outbox_waiting{schema="contacts",process="test"}'), 1);
  const age = sample(text, 'asistente_outbox_oldest_age_seconds{schema="contacts",process="test"}') ?? 0;
  t.ok(age >= 90 && age < 600, `the oldest waits ${age} s`);
  await platform.relay.drain();
  const after = await platform.metrics.text();
  t.equal(sample(after, 'asistente_relay_published_total{process="test"}'), 1, 'one event published');
  t.equal(sample(after, 'asistente_relay_publish_failures_total{process="test"}'), 0);
});

t.test('JetStream: pending events per durable consumer', { skip: process.env.NATS_URL ? false : 'set NATS_URL for the JetStream consumer gauges' }, async (t) => {
  const platform = await createTestPlatform(t, { nats: true, config: ON });
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  t.teardown(() => release());
  // The consumer holds its first batch: what was published stays pending or unacknowledged.
  await platform.bus.subscribe('metrics_probe', async () => held);
  const outbox = platform.outbox('contacts');
  const events = [1, 2, 3].map(() => createEvent('contacts.contact.deleted', randomUUID(), { contactId: randomUUID() }));
  await platform.db.sql.begin((tx) => outbox.append(tx, events));
  await platform.relay.drain();
  let text = '';
  const series = (name: string) => sample(text, `${name}{durable="metrics_probe",process="test"}`) ?? 0;
  // NATS reports the consumer once it exists and has the events; the gauges' 5 s cache is waited out by polling.
  for (let attempt = 0; attempt < 200 && series('asistente_consumer_pending') + series('asistente_consumer_ack_pending') < 3; attempt++) {
    text = (await scrape(platform)).text;
    if (series('asistente_consumer_pending') + series('asistente_consumer_ack_pending') < 3) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.equal(series('asistente_consumer_pending') + series('asistente_consumer_ack_pending'), 3, 'three events not yet acknowledged');
  t.match(text, /^# TYPE asistente_consumer_redelivered gauge$/m);
});

t.test('one registry per process: a metric registered twice is the same metric; another type under its name is refused', async (t) => {
  const metrics = new Metrics('x', true);
  const first = metrics.counter({ name: 'asistente_twice_total', help: 'h', labelNames: ['kind'] });
  const again = metrics.counter({ name: 'asistente_twice_total', help: 'h', labelNames: ['kind'] });
  t.equal(again, first, 'the embedded process mounts every service on one registry without a duplicate-name error');
  t.throws(() => metrics.gauge({ name: 'asistente_twice_total', help: 'h' }), /already registered as another type/);
});

t.test('a scrape-time read that fails leaves its gauge out and is counted; the rest of /metrics still answers', async (t) => {
  const metrics = new Metrics('x', true);
  let fail = true;
  scrapeGauge(metrics, { name: 'asistente_flaky', help: 'h', cacheMs: 0, read: async () => (fail ? Promise.reject(new Error('database down')) : [{ value: 7 }]) });
  metrics.counter({ name: 'asistente_other_total', help: 'h' }).inc();
  const broken = await metrics.text();
  t.match(broken, /^asistente_other_total\{process="x"\} 1$/m, 'the other metrics are served');
  // prom-client writes NaN as "Nan"; Prometheus reads it either way (Go's ParseFloat ignores case).
  t.match(broken, /^asistente_flaky\{process="x"\} NaN$/im, 'unknown, not a stale or made-up value');
  const failures = await metrics.registry.getSingleMetricAsString('asistente_metrics_read_failures_total');
  t.match(failures, /^asistente_metrics_read_failures_total\{gauge="asistente_flaky",process="x"\} 1$/m, 'the failure is counted');
  fail = false;
  t.match(await metrics.text(), /^asistente_flaky\{process="x"\} 7$/m, 'served again once the read succeeds');
});

t.test('outside calls map to a bounded outcome', async (t) => {
  t.equal(outcomeOf(200), 'ok');
  t.equal(outcomeOf(429), 'rate_limited');
  t.equal(outcomeOf({ status: 429 }), 'rate_limited');
  t.equal(outcomeOf({ response: { status: 503 } }), 'server_error');
  t.equal(outcomeOf({ code: '401' }), 'unauthorized');
  t.equal(outcomeOf({ statusCode: 404 }), 'client_error');
  t.equal(outcomeOf(new Error('ECONNREFUSED')), 'network_error');
  t.equal(outcomeOf({ code: 'ECONNRESET' }), 'network_error');
});
