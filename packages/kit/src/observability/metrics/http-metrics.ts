import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counter, Histogram } from 'prom-client';
import type { Metrics } from './metrics.js';

/** The route label of a request no route matched (404s, scanners): one value, whatever the URL was. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds; from a cached read to a slow import page, with room for the proxy hop. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels = 'route' | 'method' | 'status';
interface Series {
  count: Counter.Internal;
  duration: Histogram.Internal<Labels>;
}

/**
 * Request count and duration by route pattern (`/api/contacts/:id`, never the URL with its id), method
 * and status, taken when the answer is sent. The per-request cost is a few map lookups and one observe:
 * the labelled series are made once per (route, method, status) and kept, so no label object is built
 * per request. Routes, methods and statuses are bounded sets, so the cache is too.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  const count = metrics.counter<Labels>({
    name: 'asistente_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
  });
  const duration = metrics.histogram<Labels>({
    name: 'asistente_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: BUCKETS,
  });
  const series = new Map<string, Map<string, Map<number, Series>>>();
  const seriesOf = (route: string, method: string, status: number): Series => {
    let byMethod = series.get(route);
    if (!byMethod) series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let found = byStatus.get(status);
    if (!found) {
      const labels = { route, method, status: String(status) };
      found = { count: count.labels(labels), duration: duration.labels(labels) };
      byStatus.set(status, found);
    }
    return found;
  };
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const one = seriesOf(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode);
    one.count.inc();
    one.duration.observe(reply.elapsedTime / 1000);
    done();
  });
}
