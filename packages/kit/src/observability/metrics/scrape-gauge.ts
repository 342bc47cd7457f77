import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

/** One sample of a gauge read at scrape time: its label values (bounded sets only) and its value. */
export interface GaugeSample<T extends string> {
  labels?: Partial<Record<T, string>>;
  value: number;
}

export interface ScrapeGaugeOptions<T extends string> {
  name: string;
  help: string;
  labelNames?: readonly T[];
  /** Reads the current samples: a cheap, bounded query (an indexed count, a small group by). */
  read: () => Promise<readonly GaugeSample<T>[]>;
  /** Reads within this long of the last one reuse it: two Prometheus servers (or a curious operator) cost one query. */
  cacheMs?: number;
  log?: Logger;
}

/**
 * A gauge computed when Prometheus scrapes, from the database or a broker. A read that fails drops the
 * gauge's samples for that scrape (NaN for a gauge without labels) and counts the failure
 * (`asistente_metrics_read_failures_total`, seen from the next scrape on): one unreachable source must
 * never fail the whole `/metrics` answer.
 */
export function scrapeGauge<T extends string>(metrics: Metrics, options: ScrapeGaugeOptions<T>): void {
  const failures = metrics.counter({
    name: 'asistente_metrics_read_failures_total',
    help: 'Scrape-time reads of a gauge that failed (its samples were left out of that scrape), by gauge.',
    labelNames: ['gauge'],
  });
  const cacheMs = options.cacheMs ?? 5000;
  let last: { at: number; samples: readonly GaugeSample<T>[] } | undefined;
  let reading: Promise<readonly GaugeSample<T>[]> | undefined;
  metrics.gauge<T>({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames ?? [],
    async collect() {
      this.reset();
      let samples: readonly GaugeSample<T>[];
      if (last && Date.now() - last.at < cacheMs) {
        samples = last.samples;
      } else {
        // Scrapes that overlap share one read.
        reading ??= options.read().finally(() => (reading = undefined));
        try {
          samples = await reading;
          last = { at: Date.now(), samples };
        } catch (error) {
          // A gauge without labels cannot have no sample: NaN says "unknown" where 0 would look healthy.
          if (!options.labelNames?.length) this.set(Number.NaN);
          failures.inc({ gauge: options.name });
          options.log?.warn({ err: error, gauge: options.name }, 'metrics gauge read failed');
          return;
        }
      }
      for (const sample of samples) {
        if (sample.labels) this.set(sample.labels, sample.value);
        else this.set(sample.value);
      }
    },
  });
}
