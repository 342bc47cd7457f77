export { startTracing, type Tracing, type TracingOptions } from './start-tracing.js';
export { tracingConfigured, tracingServiceName } from './settings.js';
export { currentTraceparent, contextOf, tracingOn } from './trace-context.js';
export { traceQueries } from './query-spans.js';
export { publishSpans, consumeTraced, consumedTraceparent, type PublishSpans } from './event-spans.js';
export { traceLogFields } from './log-fields.js';
export { traceClientCall } from './client-call-span.js';
export { traceLinkedWork, withoutClientSpans, type SpanNotes } from './linked-span.js';
