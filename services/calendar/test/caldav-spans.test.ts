import { createServer, type Server } from 'node:http';
import t from 'tap';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HostGuard, startTracing } from '@asistente/kit';
import { guardedFetch } from '../src/adapters/calendars/caldav/guarded-fetch.js';

/** A CalDAV request is one client span naming the server and the method, never the path (it holds the user). */
const exporter = new InMemorySpanExporter();
const tracing = startTracing('calendar-test', { spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing?.shutdown());

const server: Server = createServer((request, response) => {
  response.statusCode = request.method === 'PROPFIND' ? 207 : 404;
  response.end('<multistatus/>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise((resolve) => server.close(resolve)));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

t.test('one caldav span per request, with host and method, without the path or the user', async (t) => {
  const fetchGuarded = guardedFetch(new HostGuard('127.0.0.1'), 5000);
  await (await fetchGuarded(`${base}/dav/calendars/ana.garcia@ejemplo.es/trabajo/`, { method: 'PROPFIND', headers: { authorization: 'Basic YW5hOnNlY3JldG8=' } })).text();
  const deadline = Date.now() + 10_000;
  const clientSpans = () => exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
  while (clientSpans().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const spans = clientSpans();
  t.same(spans.map((s) => s.name), ['caldav PROPFIND'], 'the generic HTTP client span is not made as well');
  t.same(spans[0]?.attributes, { 'server.address': '127.0.0.1', 'http.request.method': 'PROPFIND' });
  t.notMatch(JSON.stringify(spans.map((s) => [s.name, s.attributes, s.events, s.status])), /ana\.garcia|trabajo|YW5h|secreto/, 'neither the path, the user nor the credentials');
});
