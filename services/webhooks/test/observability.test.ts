import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createEvent, startTracing } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { webhooksService } from '../src/app.js';
import { Receiver } from './receiver.js';

/**
 * The webhooks service as an operator sees it (issue 23): its backlog in the process's metrics, and each
 * attempt as a span linked to the consumer span that turned the event into a delivery, which itself
 * continues the request's trace through the outbox and the bus. The receiver's path, where its token
 * lives, is in no span.
 */
// Tracing starts before the platform and the app, as the boot does when OTEL_* are set.
const exporter = new InMemorySpanExporter();
const tracing = startTracing('webhooks', { spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing?.shutdown());

const platform = await createTestPlatform(t, { nats: true, config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
// No timed rounds: rows written here stay due until a commit pokes the dispatcher.
const app = await buildServiceApp(t, webhooksService({ dispatcher: { pollMs: 3_600_000 } }), platform);
const receiver = await Receiver.start();
t.teardown(() => receiver.close());
const { sql } = platform.db;

const SECRET_PATH = '/hooks/T0KEN-secreto-del-receptor';

async function endpoint(t: Test, authorization: string, url: string, events: string[]): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/webhooks', headers: { authorization }, payload: { url, events } });
  t.equal(response.statusCode, 201, 'endpoint registered');
  return response.json<{ id: string }>().id;
}

const sample = (text: string, series: string) => Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.slice(series.length + 1));

t.test('the backlog: deliveries due to enabled endpoints and the oldest one\'s wait, no user in a label', async (t) => {
  const me = signToken(app);
  const live = await endpoint(t, me.authorization, receiver.url, ['contact.created']);
  const off = await endpoint(t, me.authorization, receiver.url, ['contact.created']);
  await app.inject({ method: 'PATCH', url: `/webhooks/${off}`, headers: { authorization: me.authorization }, payload: { enabled: false } });
  const row = (endpointId: string, dueAgo: string) => sql`
    insert into webhooks.deliveries (id, endpoint_id, user_id, event_id, type, body, next_attempt_at)
    values (${randomUUID()}, ${endpointId}, ${me.userId}, ${randomUUID()}, 'contact.created', '{}', now() - ${dueAgo}::interval)`;
  await row(live, '90 seconds');
  await row(live, '10 seconds');
  await row(live, '-1 hour'); // a retry scheduled for later: not due
  await row(off, '2 hours'); // its endpoint is switched off: nobody will send it
  const text = await platform.metrics.text();
  t.equal(sample(text, 'asistente_webhook_deliveries_due{process="test"}'), 2, 'two due now');
  const age = sample(text, 'asistente_webhook_oldest_due_seconds{process="test"}');
  t.ok(age >= 90 && age < 3600, `the oldest has waited 90 s or a little more (${age})`);
  t.notMatch(text, me.userId, 'no user in the metrics');
  t.notMatch(text, /asistente_metrics_read_failures_total\{/, 'the read succeeded');
  // Out of the way of the next test's dispatcher.
  await sql`delete from webhooks.deliveries where user_id = ${me.userId}`;
});

const KINDS = ['internal', 'server', 'client', 'producer', 'consumer'] as const;
const finished = () => exporter.getFinishedSpans();
async function spansUntil(found: (spans: ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
  const deadline = Date.now() + 30_000;
  while (!found(finished()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return finished();
}

t.test('request → publish → consume webhooks → an attempt linked to it, with the host alone', async (t) => {
  t.ok(tracing, 'the SDK started');
  const me = signToken(app);
  const url = `${receiver.url.replace('/hook', SECRET_PATH)}?key=clave-del-receptor`;
  await endpoint(t, me.authorization, url, ['contact.created']);
  const before = receiver.requests.length;
  const event = createEvent('contacts.contact.created', me.userId, { contactId: randomUUID(), hasEmail: false });
  // A request that commits the event through its outbox, as the contacts service does.
  const requestSpan = await trace.getTracer('test').startActiveSpan('POST /contacts', async (span) => {
    await sql.begin((tx) => platform.outbox('platform').append(tx, [event]));
    span.end();
    return span;
  });
  const traceId = requestSpan.spanContext().traceId;
  await receiver.received(before + 1);
  t.equal(receiver.requests.length, before + 1, 'the receiver heard it');

  const deliverSpan = (spans: ReadableSpan[]) => spans.find((s) => s.name === 'deliver webhook' && s.attributes['asistente.webhook.outcome'] === 'delivered');
  const spans = await spansUntil((all) => {
    const deliver = deliverSpan(all);
    return deliver !== undefined && all.some((s) => s.parentSpanContext?.spanId === deliver.spanContext().spanId && s.name === 'db update');
  });
  const publish = spans.find((s) => s.name === 'publish contacts.contact.created' && s.spanContext().traceId === traceId);
  const consume = spans.find((s) => s.name === 'consume webhooks' && s.spanContext().traceId === traceId);
  const deliver = deliverSpan(spans);
  t.equal(publish?.parentSpanContext?.spanId, requestSpan.spanContext().spanId, "the relay's publish continues the request's trace (outbox row)");
  t.equal(consume?.parentSpanContext?.spanId, publish?.spanContext().spanId, 'the webhooks consumer span is a child of the publish');
  t.ok(deliver, 'the attempt has a span');
  if (!deliver || !consume) return;
  t.equal(KINDS[deliver.kind], 'client');
  t.not(deliver.spanContext().traceId, traceId, 'a trace of its own (a retry may come hours later)');
  t.same(deliver.links.map((l) => l.context.spanId), [consume.spanContext().spanId], 'linked to the consumer span that wrote the delivery');
  t.match(deliver.attributes, { 'server.address': '127.0.0.1', 'asistente.webhook.event_type': 'contact.created', 'asistente.webhook.attempt': 1, 'http.response.status_code': 204 });
  t.ok(spans.some((s) => s.parentSpanContext?.spanId === deliver.spanContext().spanId && s.name === 'db update'), 'recording the outcome is a query under it');

  const everything = JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, status: s.status })));
  for (const secret of ['T0KEN-secreto-del-receptor', 'clave-del-receptor', 'webhook-signature', me.userId]) {
    t.notOk(everything.includes(secret), `no span carries ${secret === me.userId ? 'the user id' : secret}`);
  }
  t.notOk(spans.some((s) => KINDS[s.kind] === 'client' && s.name === 'POST'), 'no generic HTTP client span for the send');
});

t.test('a refused attempt: its span fails with the status, counted as retrying', async (t) => {
  const me = signToken(app);
  await endpoint(t, me.authorization, receiver.url, ['contact.deleted']);
  receiver.status = 503;
  t.teardown(() => (receiver.status = 204));
  const before = receiver.requests.length;
  await sql.begin((tx) => platform.outbox('platform').append(tx, [createEvent('contacts.contact.deleted', me.userId, { contactId: randomUUID() })]));
  await receiver.received(before + 1);
  const spans = await spansUntil((all) => all.some((s) => s.name === 'deliver webhook' && s.attributes['asistente.webhook.outcome'] === 'retrying'));
  const failed = spans.find((s) => s.name === 'deliver webhook' && s.attributes['asistente.webhook.outcome'] === 'retrying');
  t.match(failed?.attributes, { 'http.response.status_code': 503, 'asistente.webhook.event_type': 'contact.deleted' });
  t.equal(failed?.status.code, SpanStatusCode.ERROR);
  t.equal(failed?.status.message, 'HTTP 503');
  t.match(await platform.metrics.text(), /asistente_webhook_deliveries_total\{[^}]*outcome="retrying"[^}]*\} [1-9]/, 'counted by outcome');
});
