import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { contactsRoutes } from '@asistente/contracts';
import { createLogger, startTracing } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { descendsFrom, waitForSpans, type SeenSpan } from './tracing/spans.js';

// Tracing starts before the platform and the app, as the boot does when OTEL_* are set.
const exporter = new InMemorySpanExporter();
const tracing = startTracing('gateway', { spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing?.shutdown());

const KINDS = ['internal', 'server', 'client', 'producer', 'consumer'] as const;
const seen = (): SeenSpan[] =>
  exporter.getFinishedSpans().map((span: ReadableSpan) => ({
    service: String(span.resource.attributes['service.name']),
    name: span.name,
    kind: KINDS[span.kind],
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: span.attributes,
  }));

const lines: string[] = [];
const logged = new PassThrough();
logged.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
const platform = await createTestPlatform(t, { log: createLogger('info', 'gateway', {}, logged) });
const app = await buildGateway(platform, 'embedded');
await app.ready();
t.teardown(() => app.close());

const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: { firstName: 'Traza', lastName: 'Embebida', email: `traza-${randomBytes(3).toString('hex')}@ejemplo.es`, password: 'secreto1' },
});
const { token, user } = registered.json<{ token: string; user: { id: string } }>();

t.test('a browser trace goes through the request, its query, the relay and the analytics consumer', async (t) => {
  t.ok(tracing, 'the SDK started');
  const traceId = randomBytes(16).toString('hex');
  const created = await app.inject({
    method: 'POST',
    url: '/api/contacts',
    headers: { authorization: `Bearer ${token}`, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    payload: { firstName: 'Lucía', lastName: 'Traza' },
  });
  t.equal(created.statusCode, 201);

  const inTrace = (spans: SeenSpan[]) => spans.filter((s) => s.traceId === traceId);
  // The publish ends after its consumers (the memory bus awaits them): wait for every span, not the last one seen.
  const names = ['POST /api/contacts', 'db insert', 'publish contacts.contact.created', 'consume analytics'];
  const spans = inTrace(await waitForSpans(seen, (all) => names.every((name) => inTrace(all).some((s) => s.name === name)), 20_000));
  const server = spans.find((s) => s.kind === 'server' && s.name === 'POST /api/contacts');
  const insert = spans.find((s) => s.name === 'db insert' && String(s.attributes['db.query.text']).includes('contacts'));
  const publish = spans.find((s) => s.name === 'publish contacts.contact.created');
  const consume = spans.find((s) => s.name === 'consume analytics');
  t.ok(server, 'the server span is named by the route pattern and continues the browser trace');
  t.equal(server?.service, 'asistente-gateway', 'the embedded process is asistente-gateway');
  t.ok(insert && server && descendsFrom(insert, server, spans), 'the insert is a query span under the request');
  t.notMatch(String(insert?.attributes['db.query.text']), /Lucía/, 'the query text carries no value');
  t.ok(publish && server && descendsFrom(publish, server, spans), "the relay's publish continues the request's trace");
  t.equal(publish?.kind, 'producer');
  t.ok(consume && publish && descendsFrom(consume, publish, spans), 'the consumer span is a child of the publish');
  t.equal(consume?.kind, 'consumer');
  const rollup = spans.find((s) => consume && s.parentSpanId === consume.spanId && s.name.startsWith('db '));
  t.ok(rollup, "the consumer's queries hang under its span");

  const withIds = lines.map((line) => JSON.parse(line) as { trace_id?: string; span_id?: string }).filter((l) => l.trace_id === traceId);
  t.ok(withIds.length > 0 && withIds.every((l) => /^[0-9a-f]{16}$/.test(l.span_id ?? '')), 'log lines written inside the request carry trace_id and span_id');
});

t.test('a sibling call in-process continues the caller span', async (t) => {
  const caller = trace.getTracer('test').startSpan('assistant tool', { kind: SpanKind.INTERNAL });
  await context.with(trace.setSpan(context.active(), caller), () => platform.services.call(contactsRoutes.list, user.id));
  caller.end();
  const { traceId, spanId } = caller.spanContext();
  const spans = await waitForSpans(seen, (all) => all.some((s) => s.traceId === traceId && s.kind === 'server'), 10_000);
  const sibling = spans.find((s) => s.traceId === traceId && s.kind === 'server');
  t.equal(sibling?.name, 'GET /api/contacts', 'the sibling route has a server span');
  t.equal(sibling?.parentSpanId, spanId, 'child of the calling span');
});

t.test("the MCP route (its reply written by the transport) has its span, and a tool's call into contacts hangs under it", async (t) => {
  const personal = await app.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: { authorization: `Bearer ${token}` },
    payload: { name: 'Cliente MCP', scopes: ['contacts:read'], expiresInDays: 30 },
  });
  t.equal(personal.statusCode, 201);
  const traceId = randomBytes(16).toString('hex');
  const called = await app.inject({
    method: 'POST',
    url: '/api/mcp',
    headers: {
      authorization: `Bearer ${personal.json<{ token: string }>().token}`,
      accept: 'application/json, text/event-stream',
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'buscar_contactos', arguments: { texto: 'Lucía' } } },
  });
  t.equal(called.statusCode, 200);
  const inTrace = (all: SeenSpan[]) => all.filter((s) => s.traceId === traceId);
  const spans = inTrace(await waitForSpans(seen, (all) => inTrace(all).some((s) => s.name === 'POST /api/mcp') && inTrace(all).some((s) => s.name === 'GET /api/contacts'), 20_000));
  const mcp = spans.find((s) => s.name === 'POST /api/mcp');
  const contacts = spans.find((s) => s.name === 'GET /api/contacts');
  t.equal(mcp?.attributes['http.response.status_code'], 200, 'the MCP span ends with its status');
  t.ok(contacts && mcp && descendsFrom(contacts, mcp, spans), "the tool's call into contacts continues the MCP request's trace");
});

t.test('probes are not traced', async (t) => {
  exporter.reset();
  t.equal((await app.inject({ url: '/health' })).statusCode, 200);
  t.equal((await app.inject({ url: '/ready' })).statusCode, 200);
  t.same(seen().filter((s) => s.kind === 'server'), [], 'no server span for /health nor /ready');
});
