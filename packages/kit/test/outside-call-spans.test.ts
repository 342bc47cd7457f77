import { createServer, get, type Server } from 'node:http';
import t from 'tap';
import { context, SpanKind } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing, traceClientCall } from '../src/index.js';

const exporter = new InMemorySpanExporter();
const tracing = startTracing('kit-test', { spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing?.shutdown());

const server: Server = createServer((request, response) => {
  response.statusCode = request.url?.startsWith('/missing') ? 404 : 200;
  response.end('{}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise((resolve) => server.close(resolve)));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const nodeGet = (url: string) =>
  new Promise<void>((resolve) => {
    get(url, (response) => response.resume().on('end', resolve)).on('error', () => resolve());
  });
const finishedClientSpans = () => exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);

/** The client spans once `count` of them have been exported (the processor hands them over asynchronously). */
async function clientSpans(count = 1) {
  const deadline = Date.now() + 10_000;
  while (finishedClientSpans().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return finishedClientSpans();
}

t.test('fetch (OpenAI, Graph, siblings) gets a client span without its query string', async (t) => {
  exporter.reset();
  await (await fetch(`${base}/v1/chat?key=sk-secreto&q=hola`)).text();
  const [span] = await clientSpans();
  t.equal(span?.name, 'GET');
  t.equal(span?.attributes['http.response.status_code'], 200);
  t.equal(span?.attributes['url.query'], '[redactado]');
  t.notMatch(JSON.stringify(span?.attributes), /sk-secreto|hola/, 'neither the key nor the term');
});

t.test("Node's http client (Google's gaxios) gets a client span with its outcome", async (t) => {
  exporter.reset();
  await nodeGet(`${base}/missing?access_token=abc`);
  const [span] = await clientSpans();
  t.equal(span?.name, 'GET');
  t.equal(span?.attributes['url.path'], '/missing');
  t.equal(span?.attributes['http.response.status_code'], 404);
  t.equal(span?.status.code, 2, 'a 4xx is an error');
  t.notMatch(JSON.stringify(span?.attributes), /abc/);

  exporter.reset();
  await context.with(suppressTracing(context.active()), () => nodeGet(`${base}/v1/traces`));
  await nodeGet(`${base}/after`);
  t.same(
    (await clientSpans()).map((s) => s.attributes['url.path']),
    ['/after'],
    "the exporter's own requests (tracing suppressed) get none",
  );
});

t.test('a call that is not HTTP (SMTP, IMAP, Baileys) gets a span with its outcome, never its message', async (t) => {
  exporter.reset();
  t.equal(await traceClientCall('smtp send', { 'server.address': 'smtp.example.com' }, async () => 'ok'), 'ok');
  await t.rejects(
    traceClientCall('smtp send', { 'server.address': 'smtp.example.com' }, async () => {
      throw Object.assign(new Error('535 auth failed for ana@example.com'), { code: 'EAUTH' });
    }),
  );
  const [ok, failed] = await clientSpans(2);
  t.equal(ok?.status.code, 0);
  t.equal(failed?.status.code, 2);
  t.equal(failed?.status.message, 'EAUTH', 'the code, not the message');
});
