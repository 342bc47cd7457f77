import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import type { ConsumerLag } from '../../events/jetstream-bus.js';
import { registerConsumerMetrics, registerOutboxMetrics } from './event-metrics.js';
import { startMetricsListener, type MetricsListener } from './listener.js';
import type { Metrics } from './metrics.js';
import { registerProcessMetrics } from './process-metrics.js';

export interface ProcessMetricsOptions {
  metrics: Metrics;
  port: number;
  host: string;
  db: Database;
  poolMax: number;
  log: Logger;
  /** The outbox tables this process writes (and relays); none for a process without events. */
  outboxTables?: () => Iterable<string>;
  /** The JetStream consumers' backlog, when the process runs on NATS. */
  consumerLag?: () => Promise<ConsumerLag[]>;
}

/** What one process measures of itself and its events, served on its metrics listener. */
export async function serveProcessMetrics(options: ProcessMetricsOptions): Promise<MetricsListener> {
  const { metrics, db, log } = options;
  registerProcessMetrics(metrics, db, options.poolMax, log);
  if (options.outboxTables) registerOutboxMetrics(metrics, db.sql, options.outboxTables, log);
  if (options.consumerLag) registerConsumerMetrics(metrics, options.consumerLag, log);
  return startMetricsListener(metrics, options.port, options.host, log);
}

/**
 * The application_name of this process's database connections: unique per process (name, pid, the end
 * of the host name, which is where a pod's or container's own part is), within PostgreSQL's 63 bytes.
 */
export function processApplicationName(name: string): string {
  return `mi-asistente ${name.slice(0, 12)} ${process.pid} ${hostname().slice(-24)}`;
}
