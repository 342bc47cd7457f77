import { createServer, get, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { consumeTraced, consumedTraceparent, createEvent, startTracing, traceLinkedWork, withoutClientSpans } from '../src/index.js';

/**
 * Work a consumer leaves for later (a webhook delivery): the consumer stores, per event, the traceparent of
 * the consume span covering that event's own trace; the later work's span starts a trace of its own linked
 * to it; and a request whose URL is a secret is sent without the generic client span.
 */
const exporter = new InMemorySpanExporter();
const tracing = startTracing('kit-test', { spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing?.shutdown());

/** The finished spans once `count` have been exported (the processor hands them over asynchronously). */
async function finished(count: number) {
  const deadline = Date.now() + 10_000;
  while (exporter.getFinishedSpans().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return exporter.getFinishedSpans();
}

const traceparent = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
const spanIdOf = (value: string | undefined) => value?.split('-')[2];
const traceIdOf = (value: string | undefined) => value?.split('-')[1];

t.test('a batch from two requests: each event is covered by the consume span of its own trace', async (t) => {
  exporter.reset();
  const [a, b] = [traceparent(), traceparent()];
  const created = () => createEvent('contacts.contact.created', crypto.randomUUID(), { contactId: crypto.randomUUID(), hasEmail: false });
  const events = [created(), created(), createEvent('contacts.contact.deleted', crypto.randomUUID(), { contactId: crypto.randomUUID() })];
  const stored = await consumeTraced('webhooks', events, [a, a, b], async () => events.map((event) => consumedTraceparent(event.id)));
  const consumers = (await finished(2)).filter((s) => s.kind === SpanKind.CONSUMER);
  t.equal(consumers.length, 2, 'one consume span per originating trace');
  t.equal(stored[0], stored[1], 'the two events of one request share its consume span');
  t.equal(traceIdOf(stored[0]), traceIdOf(a), "the first request's trace");
  t.equal(traceIdOf(stored[2]), traceIdOf(b), "the third event is in the second request's trace");
  const ids = new Set(consumers.map((s) => s.spanContext().spanId));
  t.ok(stored.every((value) => ids.has(spanIdOf(value)!)), 'each stored traceparent names a consume span that was exported');
  t.equal(consumedTraceparent('no-such-event'), undefined, 'outside a consumer and any span: none');
});

t.test('later work: a root span linked to the stored traceparent, its outcome noted', async (t) => {
  exporter.reset();
  const stored = traceparent();
  const answer = await traceLinkedWork('deliver webhook', { kind: 'client', attributes: { 'server.address': 'hooks.example' }, linkTo: stored }, async (notes) => {
    notes.set({ 'http.response.status_code': 503 });
    notes.fail('HTTP 503');
    return 'retrying';
  });
  t.equal(answer, 'retrying', "the work's own answer");
  const [span] = await finished(1);
  t.equal(span?.kind, SpanKind.CLIENT);
  t.equal(span?.parentSpanContext, undefined, 'a root span');
  t.not(span?.spanContext().traceId, traceIdOf(stored), 'a trace of its own');
  t.same(span?.links.map((l) => [l.context.traceId, l.context.spanId]), [[traceIdOf(stored), spanIdOf(stored)]], 'linked to the stored span');
  t.match(span?.attributes, { 'server.address': 'hooks.example', 'http.response.status_code': 503 });
  t.same(span?.status, { code: SpanStatusCode.ERROR, message: 'HTTP 503' });

  exporter.reset();
  const failing = traceLinkedWork('deliver webhook', { attributes: {}, linkTo: null }, async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443 with secrets'), { code: 'ECONNREFUSED' });
  });
  await t.rejects(failing, { code: 'ECONNREFUSED' }, 'the failure reaches the caller');
  const [failed] = await finished(1);
  t.same(failed?.links, [], 'no stored traceparent: no link');
  t.same(failed?.status, { code: SpanStatusCode.ERROR, message: 'ECONNREFUSED' }, 'its code, never its message');
});

t.test('withoutClientSpans: a request sent inside leaves no generic client span', async (t) => {
  const server: Server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/services/T000/B000/secreto`;
  const nodeGet = () => new Promise<void>((resolve) => get(url, (response) => response.resume().on('end', resolve)).on('error', () => resolve()));
  exporter.reset();
  await traceLinkedWork('deliver webhook', { kind: 'client', attributes: {}, linkTo: null }, () => withoutClientSpans(nodeGet));
  await traceLinkedWork('plain call', { attributes: {}, linkTo: null }, nodeGet);
  // Every span here ends before the next starts: once the last one ('plain call') is exported, so is any other.
  const deadline = Date.now() + 10_000;
  while (!exporter.getFinishedSpans().some((s) => s.name === 'plain call') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const names = exporter.getFinishedSpans().map((s) => s.name).sort();
  t.same(names, ['GET', 'deliver webhook', 'plain call'], 'the suppressed request has no span; the same request outside it has one');
  t.notMatch(
    JSON.stringify(exporter.getFinishedSpans().filter((s) => s.name === 'deliver webhook').map((s) => s.attributes)),
    /secreto/,
    'the secret path is nowhere in the work span',
  );
});
