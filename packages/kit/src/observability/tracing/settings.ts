/** The standard variables that name where traces go; with none of them set, tracing stays off. */
const DESTINATION_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_TRACES_EXPORTER'] as const;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Tracing is on when the environment names a destination for traces (an OTLP endpoint, or an exporter
 * other than `none`) and `OTEL_SDK_DISABLED` is not `true`. Only the standard OTEL_* variables count:
 * an operator points any OpenTelemetry-aware process the same way. Unset, no SDK starts and the
 * @opentelemetry/api calls stay the no-op ones.
 */
export function tracingConfigured(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (exporters.includes('none')) return false;
  return DESTINATION_VARIABLES.some((name) => (env[name] ?? '').trim() !== '');
}

/** `OTEL_SERVICE_NAME` when set, otherwise the process's own name: `asistente-contacts`, `asistente-gateway`… */
export function tracingServiceName(processName: string, env: Env = process.env): string {
  const given = env.OTEL_SERVICE_NAME?.trim();
  return given ? given : `asistente-${processName}`;
}
