import { context, createContextKey, SpanKind, SpanStatusCode, trace, type Link, type Span } from '@opentelemetry/api';
import type { EventEnvelope } from '../../events/envelope.js';
import { contextOf, currentTraceparent, kitTracer, tracingOn } from './trace-context.js';

/** Inside a consumer's handler: which consume span covers each event of the batch (its `traceparent`), by event id. */
const CONSUMED = createContextKey('asistente.consumed-traceparents');

/**
 * The `traceparent` of the consume span that covers `eventId` in the batch being handled: what a consumer
 * stores with work the event leaves for later (a webhook delivery), so that work's span can link back to
 * the request that caused it. Outside a traced consumer it is the active span's, or undefined.
 */
export function consumedTraceparent(eventId: string): string | undefined {
  const byEvent = context.active().getValue(CONSUMED) as ReadonlyMap<string, string> | undefined;
  return byEvent?.get(eventId) ?? currentTraceparent();
}

/** A batch from this many different requests gets one span each; the rest share one span that links to them. */
const MAX_PARENTS_PER_BATCH = 32;

function endAll(spans: Span[], error: unknown): void {
  for (const span of spans) {
    if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message ?? String(error) });
    span.end();
  }
}

/** What a publish hands the bus: each event's `traceparent`, and how to close the publish spans. */
export interface PublishSpans {
  traceparents: (string | undefined)[] | undefined;
  end(error?: unknown): void;
}

const UNTRACED: PublishSpans = { traceparents: undefined, end: () => {} };

/**
 * One producer span per event the relay publishes, child of the request that wrote it (the outbox
 * row's `traceparent`). The bus carries each span's own `traceparent` onward (NATS headers; the
 * memory bus hands it to its consumers), so a consumer's span continues the same trace.
 */
export function publishSpans(events: readonly EventEnvelope[], stored: readonly (string | null | undefined)[]): PublishSpans {
  if (!tracingOn()) return UNTRACED;
  const tracer = kitTracer();
  const spans = events.map((event, i) =>
    tracer.startSpan(
      `publish ${event.type}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: { 'messaging.operation.type': 'send', 'messaging.destination.name': event.type, 'messaging.message.id': event.id },
      },
      contextOf(stored[i]),
    ),
  );
  return {
    traceparents: spans.map((span) => currentTraceparent(trace.setSpan(context.active(), span))),
    end: (error?: unknown) => endAll(spans, error),
  };
}

/**
 * Runs a consumer's handler on a batch under consumer spans: one per originating trace in the batch,
 * each child of the context the event arrived with (so one request is followed from the browser into
 * the consumer); events beyond MAX_PARENTS_PER_BATCH traces, or that came without a context, share one
 * span linked to theirs. The first span is active while the handler runs: its queries hang under it.
 */
export async function consumeTraced<T>(
  consumer: string,
  events: readonly EventEnvelope[],
  traceparents: readonly (string | null | undefined)[] | undefined,
  handle: () => Promise<T>,
): Promise<T> {
  if (!tracingOn() || events.length === 0) return handle();
  const tracer = kitTracer();
  const byParent = new Map<string, EventEnvelope[]>();
  const leftOver: EventEnvelope[] = [];
  const links: Link[] = [];
  events.forEach((event, i) => {
    const parent = traceparents?.[i];
    const group = parent ? byParent.get(parent) : undefined;
    if (group) group.push(event);
    else if (parent && byParent.size < MAX_PARENTS_PER_BATCH) byParent.set(parent, [event]);
    else {
      leftOver.push(event);
      const spanContext = parent ? trace.getSpanContext(contextOf(parent)) : undefined;
      if (spanContext) links.push({ context: spanContext });
    }
  });
  const start = (parent: string | undefined, grouped: EventEnvelope[], spanLinks: Link[] = []) =>
    tracer.startSpan(
      `consume ${consumer}`,
      {
        kind: SpanKind.CONSUMER,
        links: spanLinks,
        attributes: {
          'messaging.operation.type': 'process',
          'messaging.consumer.group.name': consumer,
          'messaging.batch.message_count': grouped.length,
          'messaging.message.id': grouped[0]!.id,
          'asistente.event.types': [...new Set(grouped.map((e) => e.type))].join(','),
        },
      },
      contextOf(parent),
    );
  const groups = [...byParent.values()];
  if (leftOver.length > 0) groups.push(leftOver);
  const spans = [...byParent].map(([parent, grouped]) => start(parent, grouped));
  if (leftOver.length > 0) spans.push(start(undefined, leftOver, links));
  const byEvent = new Map<string, string>();
  groups.forEach((grouped, i) => {
    const traceparent = currentTraceparent(trace.setSpan(context.active(), spans[i]!));
    if (traceparent) for (const event of grouped) byEvent.set(event.id, traceparent);
  });
  try {
    const active = trace.setSpan(context.active(), spans[0]!).setValue(CONSUMED, byEvent);
    const result = await context.with(active, handle);
    endAll(spans, undefined);
    return result;
  } catch (error) {
    endAll(spans, error);
    throw error;
  }
}
