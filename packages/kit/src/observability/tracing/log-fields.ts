import { context, trace } from '@opentelemetry/api';
import { tracingOn } from './trace-context.js';

/**
 * pino mixin: `trace_id` and `span_id` of the active span on every log line written inside one, so a
 * log line leads to its trace and a trace to its lines. Without tracing it adds nothing.
 */
export function traceLogFields(): Record<string, string> {
  // A fresh object each time, never a shared frozen one: pino's default merge assigns the line's own fields
  // (`{ err }`, …) onto what the mixin returns, and a frozen object makes that log call throw.
  if (!tracingOn()) return {};
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
