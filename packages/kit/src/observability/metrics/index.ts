export { Metrics, METRIC_PREFIX } from './metrics.js';
export { scrapeGauge, type GaugeSample, type ScrapeGaugeOptions } from './scrape-gauge.js';
export { installHttpMetrics, UNMATCHED_ROUTE } from './http-metrics.js';
export { meteredPublishing, OUTBOX_COUNT_CAP } from './event-metrics.js';
export { serveProcessMetrics, processApplicationName } from './process-setup.js';
export { startMetricsListener, type MetricsListener } from './listener.js';
export { outcomeOf, observeProviderCalls, type CallOutcome, type CallObserver } from './call-outcome.js';
