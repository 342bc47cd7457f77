import { randomUUID } from 'node:crypto';
import { types } from 'node:util';
import t from 'tap';
import { context, createContextKey, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { createEvent, currentTraceparent, startTracing, tracingConfigured, tracingOn, tracingServiceName } from '../src/index.js';
import { createTestPlatform } from '../src/testing/index.js';

// Whatever the shell running the tests has: this process is the "no OTEL_* set" case.
for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];

t.test('only a named destination turns tracing on, and OTEL_SDK_DISABLED turns it off', async (t) => {
  t.equal(tracingConfigured({}), false, 'nothing set');
  t.equal(tracingConfigured({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }), false, 'a name or a sampler alone exports nowhere');
  t.equal(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), true, 'an OTLP endpoint');
  t.equal(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }), true, 'a traces endpoint');
  t.equal(tracingConfigured({ OTEL_TRACES_EXPORTER: 'console' }), true, 'an exporter by name');
  t.equal(tracingConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }), false, 'exporter none');
  t.equal(tracingConfigured({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }), false, 'SDK disabled');
  t.equal(tracingServiceName('contacts', {}), 'asistente-contacts');
  t.equal(tracingServiceName('contacts', { OTEL_SERVICE_NAME: 'crm-contacts' }), 'crm-contacts');
});

t.test('with no OTEL_* set no SDK starts and the API stays the no-op one', async (t) => {
  t.equal(startTracing('contacts'), undefined, 'startTracing does nothing');
  const platform = await createTestPlatform(t);
  t.equal(tracingOn(), false, 'tracing is off after the platform booted');

  const span = trace.getTracer('probe').startSpan('probe');
  t.equal(span.isRecording(), false, 'spans are non-recording');
  t.equal(span.spanContext().traceId, '00000000000000000000000000000000', 'and carry no trace id');
  span.end();
  t.same(propagation.fields(), [], 'no propagator is installed');
  const key = createContextKey('probe');
  t.equal(context.with(ROOT_CONTEXT.setValue(key, 1), () => context.active().getValue(key)), undefined, 'no context manager either');
  t.equal(currentTraceparent(), undefined, 'nothing to store beside an event');
  t.equal(types.isProxy(platform.db.sql), false, "the database client is postgres.js's own, unwrapped");

  const event = createEvent('contacts.contact.deleted', randomUUID(), { contactId: randomUUID() });
  await platform.db.sql.begin((tx) => platform.outbox('contacts').append(tx, [event]));
  const [row] = await platform.db.sql<{ traceparent: string | null }[]>`select traceparent from contacts.outbox where id = ${event.id}`;
  t.equal(row?.traceparent, null, 'the outbox row has no trace context');
  await platform.relay.drain();
});
