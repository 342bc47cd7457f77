import { context, propagation, ROOT_CONTEXT, trace, type Context, type Tracer } from '@opentelemetry/api';

/** The kit's tracer: spans the kit opens itself (queries, publishes, consumers, outside calls). */
export const TRACER_NAME = '@asistente/kit';

let on = false;

/** Whether this process started the SDK: the kit's own span code is skipped entirely when not. */
export function tracingOn(): boolean {
  return on;
}

/** Set by startTracing (and its shutdown); nothing else flips it. */
export function markTracing(value: boolean): void {
  on = value;
}

export function kitTracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/** The W3C `traceparent` of the active span, to store beside an event or send to a sibling; undefined without one. */
export function currentTraceparent(activeContext: Context = context.active()): string | undefined {
  if (!on) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(activeContext, carrier);
  return carrier.traceparent;
}

/** The remote context a stored or received `traceparent` names (the root context when it is missing or malformed). */
export function contextOf(traceparent: string | null | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}
