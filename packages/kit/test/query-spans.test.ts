import t from 'tap';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '../src/index.js';
import { createTestPlatform } from '../src/testing/index.js';

const exporter = new InMemorySpanExporter();
const tracing = startTracing('kit-test', { spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing?.shutdown());
const platform = await createTestPlatform(t);
const sql = platform.db.sql;

/** Runs `work` under a parent span and returns the query spans it produced (a query awaited inside `work`). */
async function queriesOf(work: () => Promise<unknown>, reset = true) {
  if (reset) exporter.reset();
  const parent = trace.getTracer('test').startSpan('parent');
  await context.with(trace.setSpan(context.active(), parent), work).catch(() => undefined);
  parent.end();
  // The processor may hand spans over asynchronously (while the resource's attributes settle): wait for the parent's.
  const deadline = Date.now() + 10_000;
  while (!exporter.getFinishedSpans().some((s) => s.spanContext().spanId === parent.spanContext().spanId) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return exporter.getFinishedSpans().filter((s) => s.name.startsWith('db ') && s.parentSpanContext?.spanId === parent.spanContext().spanId);
}

t.test('a query is a span with its text, never its values, and its outcome', async (t) => {
  const secret = 'valor-secreto-123';
  const [ok] = await queriesOf(async () => await sql`select ${secret}::text as v, 1 as n`);
  t.equal(ok?.name, 'db select');
  t.equal(ok?.attributes['db.query.text'], 'select $1::text as v, 1 as n');
  t.equal(ok?.attributes['db.response.returned_rows'], 1);
  t.notMatch(JSON.stringify(ok?.attributes), secret, 'the parameter is nowhere in the span');

  const [failed] = await queriesOf(async () => await sql`select * from no_such_table`);
  t.equal(failed?.status.code, 2, 'a failed query is an error span');
  t.equal(failed?.attributes['db.response.status_code'], '42P01', "with PostgreSQL's code");
});

t.test('queries inside a transaction are spans too; fragments are not', async (t) => {
  const spans = await queriesOf(() =>
    sql.begin(async (tx) => {
      await tx`select 1 where true ${tx`and 2 = 2`}`;
      await tx.unsafe('select 2');
    }),
  );
  t.same(
    spans.map((s) => s.attributes['db.query.text']),
    ['select 1 where true $1', 'select 2'],
    'two spans: the statement (the fragment a placeholder in it) and the unsafe one',
  );
});

t.test('a query outside any span (a relay poll, a lease renewal) opens no trace of its own', async (t) => {
  exporter.reset();
  await context.with(trace.deleteSpan(context.active()), async () => await sql`select 1`);
  const spans = await queriesOf(async () => await sql`select 2`, false);
  t.same(spans.map((s) => s.attributes['db.query.text']), ['select 2'], 'the query under a span has one');
  t.same(exporter.getFinishedSpans().filter((s) => s.attributes['db.query.text'] === 'select 1'), [], 'the one outside has none');
});
