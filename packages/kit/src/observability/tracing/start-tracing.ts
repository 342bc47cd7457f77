import { createRequire } from 'node:module';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { httpServerSpans } from './http-server-spans.js';
import { nodeHttpClientSpans } from './node-http-client-spans.js';
import { outsideCallSpans } from './outside-call-spans.js';
import { tracingConfigured, tracingServiceName } from './settings.js';
import { markTracing } from './trace-context.js';

// The SDK (with its exporters, ~17 MB resident) is loaded only when tracing starts: most processes never
// trace. It is CommonJS, as the static import loaded it, so it is required here and startTracing stays
// synchronous (it must run before any Fastify app exists).
const requireSdk = createRequire(import.meta.url);

/** Spans still queued get this long to reach the collector at shutdown: a collector that is gone must not hold it. */
const FLUSH_DEADLINE_MS = 2_000;

export interface Tracing {
  /** Flushes the spans still queued and stops exporting (SIGTERM, through the platform's close). */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Tests: where finished spans go instead of the exporter the environment names (turns tracing on). */
  spanProcessors?: SpanProcessor[];
}

let started: Tracing | undefined;

/**
 * Starts the OpenTelemetry SDK for this process when the OTEL_* variables ask for it (see
 * tracingConfigured), before any Fastify app exists so every app gets its server spans. Exporter,
 * protocol, endpoint, sampler and propagators are the SDK's own reading of the environment; only the
 * service name defaults to the process's. Returns undefined when tracing stays off, or when this
 * process started it already (one SDK per process; the first caller owns its shutdown).
 */
export function startTracing(processName: string, options: TracingOptions = {}): Tracing | undefined {
  const env = options.env ?? process.env;
  if (started || (!options.spanProcessors && !tracingConfigured(env))) return undefined;
  const { NodeSDK } = requireSdk('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: tracingServiceName(processName, env) }),
    instrumentations: [httpServerSpans(), outsideCallSpans()],
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    // Traces only: metrics are Prometheus's (METRICS_PORT) and logs are pino's lines on stdout.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const nodeHttp = nodeHttpClientSpans();
  markTracing(true);
  const tracing: Tracing = {
    async shutdown() {
      if (started !== tracing) return;
      started = undefined;
      markTracing(false);
      nodeHttp.stop();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_DEADLINE_MS)));
      await Promise.race([sdk.shutdown().catch(() => undefined), deadline]);
      clearTimeout(timer);
    },
  };
  started = tracing;
  return tracing;
}
