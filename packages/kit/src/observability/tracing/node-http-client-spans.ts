import dc from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { context, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { kitTracer } from './trace-context.js';

const START = 'http.client.request.start';
const FINISH = 'http.client.response.finish';

/**
 * Client spans for requests made with Node's `http`/`https` modules, which fetch-based instrumentation
 * does not see: Google's client (gaxios over node-fetch) is the one that matters. Node 20 announces such a
 * request on a diagnostics channel once its headers are on their way, so the span starts there (a
 * connection's set-up is outside it) and no `traceparent` can be added: Google would not read one anyway.
 * Method, host, path (never the query) and status; the exporter's own requests (tracing suppressed) are skipped.
 */
export function nodeHttpClientSpans(): { stop(): void } {
  const open = new WeakMap<ClientRequest, Span>();
  const onStart = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    const active = context.active();
    if (isTracingSuppressed(active)) return;
    const path = request.path.split('?')[0] ?? '';
    const span = kitTracer().startSpan(
      request.method,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'http.request.method': request.method, 'server.address': request.host, 'url.path': path },
      },
      active,
    );
    open.set(request, span);
    request.once('error', (error: Error & { code?: string }) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.code ?? error.message });
      span.end();
      open.delete(request);
    });
  };
  const onFinish = (message: unknown) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    const span = open.get(request);
    if (!span) return;
    open.delete(request);
    const status = response.statusCode ?? 0;
    span.setAttribute('http.response.status_code', status);
    if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  dc.subscribe(START, onStart);
  dc.subscribe(FINISH, onFinish);
  return {
    stop() {
      dc.unsubscribe(START, onStart);
      dc.unsubscribe(FINISH, onFinish);
    },
  };
}
