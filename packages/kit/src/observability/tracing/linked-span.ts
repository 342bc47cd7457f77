import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Link } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { contextOf, kitTracer, tracingOn } from './trace-context.js';

/** What the work tells its span as it goes: attributes of its outcome, or that it failed and why (no secret, no body). */
export interface SpanNotes {
  set(attributes: Attributes): void;
  fail(reason: string): void;
}

const NO_NOTES: SpanNotes = { set: () => {}, fail: () => {} };

/** Span kinds by name: a service calls this without depending on the OpenTelemetry API itself. */
const KINDS = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, producer: SpanKind.PRODUCER, consumer: SpanKind.CONSUMER } as const;

/**
 * Work done later for something a traced request or event started (a webhook attempt for a delivery row a
 * consumer wrote, maybe hours after, maybe a retry): a span that starts a trace of its own, linked to the
 * stored `traceparent`, instead of a child that would stretch the request's trace over hours. Queries the
 * work runs hang under it. Tracing off, the work runs as is.
 */
export async function traceLinkedWork<T>(
  name: string,
  /** `attributes` may be a function: worked out only when tracing is on (the work may run hundreds of times a second). */
  options: { kind?: keyof typeof KINDS; attributes: Attributes | (() => Attributes); linkTo: string | null | undefined },
  work: (notes: SpanNotes) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return work(NO_NOTES);
  const linked = options.linkTo ? trace.getSpanContext(contextOf(options.linkTo)) : undefined;
  const links: Link[] = linked ? [{ context: linked }] : [];
  const attributes = typeof options.attributes === 'function' ? options.attributes() : options.attributes;
  const span = kitTracer().startSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes, links }, ROOT_CONTEXT);
  const notes: SpanNotes = {
    set: (attributes) => span.setAttributes(attributes),
    fail: (reason) => span.setStatus({ code: SpanStatusCode.ERROR, message: reason }),
  };
  try {
    return await context.with(trace.setSpan(ROOT_CONTEXT, span), () => work(notes));
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === 'string' ? code : 'failed' });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs a call with the generic HTTP client spans switched off: for a request whose URL is itself a secret
 * (a webhook receiver's path often carries its token, as Slack's do), whose caller records a span of its
 * own with the host alone.
 */
export function withoutClientSpans<T>(call: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return call();
  return context.with(suppressTracing(context.active()), call);
}
