import { context, trace } from '@opentelemetry/api';
import { tracingOn } from './trace-context.js';

const NONE = Object.freeze({});

/**
 * pino mixin: `trace_id` and `span_id` of the active span on every log line written inside one, so a
 * log line leads to its trace and a trace to its lines. Without tracing it adds nothing.
 */
export function traceLogFields(): Record<string, string> {
  if (!tracingOn()) return NONE;
  const span = trace.getSpan(context.active());
  if (!span) return NONE;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
