import { createRequire } from 'node:module';
import type { FastifyOtelInstrumentation } from '@fastify/otel';

// Required when tracing starts (startTracing), not when the kit loads: ~9 MB resident a process without
// tracing does not need. CommonJS, as the static import loaded it.
const requireInstrumentation = createRequire(import.meta.url);

/** Probes and scrapes: polled every few seconds by machines, they would bury the requests people make. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics']);

function untraced(url: string): boolean {
  const mark = url.indexOf('?');
  return UNTRACED_PATHS.has(mark === -1 ? url : url.slice(0, mark));
}

/**
 * Server spans for every Fastify app the process creates (a service, the gateway, embedded or distributed):
 * `@fastify/otel` joins each app as it initialises, extracts an incoming `traceparent` and names the span
 * by the route pattern (`POST /api/contacts`), never the raw URL. Hook and handler spans are left out: one
 * span per request is what an operator reads, and each extra span costs on every request.
 */
export function httpServerSpans(): FastifyOtelInstrumentation {
  const { FastifyOtelInstrumentation } = requireInstrumentation('@fastify/otel') as typeof import('@fastify/otel');
  return new FastifyOtelInstrumentation({
    registerOnInitialization: true,
    instrumentHooks: false,
    instrumentHandler: false,
    ignorePaths: (route) => untraced(route.url),
    requestHook: (span, request) => {
      span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`);
    },
  });
}
