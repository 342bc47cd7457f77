import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
  type Metric,
} from 'prom-client';

/** Every metric the product defines starts with this, so its own names never collide with a library's. */
export const METRIC_PREFIX = 'asistente_';

/**
 * The process's Prometheus registry. One per process: the embedded process mounts every service on one
 * platform, so every service registers here, and a service registered again (a second app on the same
 * platform, in tests) gets the metric it registered first instead of a duplicate-name error.
 *
 * `enabled` is METRICS_PORT being set: without it nothing reads the registry, so the process skips the
 * costs that are not a counter's increment (default process metrics, the per-request hook).
 */
export class Metrics {
  readonly registry = new Registry();

  constructor(
    /** The process's name (`gateway`, `contacts`…), the `process` label of every series. */
    readonly processName: string,
    readonly enabled: boolean,
  ) {
    this.registry.setDefaultLabels({ process: processName });
  }

  counter<T extends string>(config: CounterConfiguration<T>): Counter<T> {
    return this.existing<Counter<T>>(config.name, Counter) ?? new Counter({ ...config, registers: [this.registry] });
  }

  gauge<T extends string>(config: GaugeConfiguration<T>): Gauge<T> {
    return this.existing<Gauge<T>>(config.name, Gauge) ?? new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<T extends string>(config: HistogramConfiguration<T>): Histogram<T> {
    return this.existing<Histogram<T>>(config.name, Histogram) ?? new Histogram({ ...config, registers: [this.registry] });
  }

  /** The Prometheus text exposition of every metric of the process. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private existing<M extends Metric>(name: string, kind: abstract new (...args: never[]) => unknown): M | undefined {
    const found = this.registry.getSingleMetric(name);
    if (found === undefined) return undefined;
    if (!(found instanceof kind)) throw new Error(`metric ${name} is already registered as another type`);
    return found as unknown as M;
  }
}
