import { createRequire } from 'node:module';
import type { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { Span } from '@opentelemetry/api';

// Required when tracing starts (startTracing), not when the kit loads: ~7 MB resident a process without
// tracing does not need. CommonJS, as the static import loaded it.
const requireInstrumentation = createRequire(import.meta.url);

const CENSOR = '[redactado]';

/** undici's request headers: `[name, value, …]` (undici 6+, Node's fetch) or raw `name: value\r\n` lines. */
function carriesTraceparent(headers: unknown): boolean {
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'traceparent') return true;
    return false;
  }
  return typeof headers === 'string' && /(^|\r\n)traceparent:/i.test(headers);
}

interface UndiciRequest {
  origin: string;
  path: string;
  headers: unknown;
}

/**
 * Client spans for every fetch and undici request the process makes: Google (gaxios), Microsoft Graph,
 * OpenAI, a sibling service, the gateway's proxy. The query string is left out of the span (it can
 * carry an API key or a search term): method, host, path and status are enough to see what was slow
 * or failed. A request that already carries a `traceparent` (the gateway's proxy sets the one of its
 * server span in `rewriteRequestHeaders`) is left alone, so no second header joins it.
 */
export function outsideCallSpans(): UndiciInstrumentation {
  const { UndiciInstrumentation } = requireInstrumentation('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  return new UndiciInstrumentation({
    ignoreRequestHook: (request) => carriesTraceparent((request as UndiciRequest).headers),
    requestHook: (span: Span, request) => {
      const { origin, path } = request as UndiciRequest;
      const mark = path.indexOf('?');
      if (mark === -1) return;
      span.setAttribute('url.full', `${origin}${path.slice(0, mark)}?${CENSOR}`);
      span.setAttribute('url.query', CENSOR);
    },
  });
}
