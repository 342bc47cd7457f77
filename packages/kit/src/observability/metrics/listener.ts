import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

export interface MetricsListener {
  /** The port it listens on (METRICS_PORT=0 picks a free one: tests). */
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` in the Prometheus text format, on a plain Node server of its own: not a route of the
 * Fastify app, so no gateway route, proxy or SPA fallback can ever expose it on the public port, and a
 * busy or closing app does not hide the process's metrics.
 */
export async function startMetricsListener(metrics: Metrics, port: number, host: string, log: Logger): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        log.error({ err: error }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  // A scrape connection left open must not hold the shutdown.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  log.info({ port: actual }, `metrics on http://${host}:${actual}/metrics`);
  return {
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
