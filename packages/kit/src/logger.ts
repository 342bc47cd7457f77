import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { redactUrl } from './http/redact-url.js';
import { traceLogFields } from './observability/tracing/log-fields.js';

/** Paths that may carry a credential; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.apiKey',
  '*.secret',
];

/** What Fastify's request serializer reads (its own, which this one replaces, logs `req.url` as received). */
interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}

/** Fastify's request fields, with OAuth codes, states, tokens and the tracking MAC out of the URL. */
function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** `destination` defaults to stdout; tests pass a memory stream to read what was logged. */
export function createLogger(level: string, name: string, extra: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    name,
    redact: { paths: REDACTED_PATHS, censor: '[redactado]' },
    serializers: { req: serializeRequest },
    // trace_id and span_id when a span is active (tracing on): a line leads to its trace.
    mixin: traceLogFields,
    ...extra,
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
