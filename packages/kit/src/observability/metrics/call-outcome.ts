import type { Counter } from 'prom-client';
import type { Metrics } from './metrics.js';

/** How a call to an outside API ended, as a bounded label value. */
export type CallOutcome = 'ok' | 'rate_limited' | 'unauthorized' | 'client_error' | 'server_error' | 'network_error';

/**
 * The outcome of a call from its HTTP status (a number) or the error it threw (SDK errors carry `status`,
 * `code` or `response.status`): 429 apart, since rate limits are what an operator watches for.
 */
export function outcomeOf(result: number | unknown): CallOutcome {
  const status = typeof result === 'number' ? result : statusOf(result);
  if (status === undefined) return 'network_error';
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}

function statusOf(error: unknown): number | undefined {
  const candidate = error as { status?: unknown; statusCode?: unknown; code?: unknown; response?: { status?: unknown } } | null;
  for (const value of [candidate?.status, candidate?.statusCode, candidate?.response?.status, candidate?.code]) {
    if (typeof value === 'number' && value >= 100 && value < 600) return value;
    if (typeof value === 'string' && /^\d{3}$/.test(value)) return Number(value);
  }
  return undefined;
}

/** What an outside call reports when it ends: its HTTP status, or the error it failed with. */
export type CallObserver = (result: number | unknown) => void;

/**
 * Counts calls to an outside API (`asistente_provider_calls_total{provider, outcome}`): the adapters call the
 * returned function once per HTTP attempt. One metric for every service that calls a provider; `provider` is
 * the API's name as the calling service writes it once (a constant, so the label stays bounded): the kit
 * lists no provider.
 */
export function observeProviderCalls(metrics: Metrics, provider: string): CallObserver {
  const calls = metrics.counter<'provider' | 'outcome'>({
    name: 'asistente_provider_calls_total',
    help: "HTTP calls to outside providers' APIs by provider and outcome: ok, rate_limited (429), unauthorized, client_error, server_error, network_error.",
    labelNames: ['provider', 'outcome'],
  });
  const byOutcome = new Map<CallOutcome, Counter.Internal>();
  return (result) => {
    const outcome = outcomeOf(result);
    let series = byOutcome.get(outcome);
    if (!series) byOutcome.set(outcome, (series = calls.labels({ provider, outcome })));
    series.inc();
  };
}
