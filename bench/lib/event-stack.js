// The app on real PostgreSQL + NATS JetStream for benches that commit events themselves: a database and a
// stream of this run's own, the app (one process, or `npm run start:distributed`'s processes), and a producer
// platform in this process whose relay publishes what it commits to the app's stream.
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { createLogger, createPlatform, loadConfig } from '../../packages/kit/dist/index.js';
import { createTestDatabase } from '../../packages/kit/dist/testing/index.js';
import { startNode, stopAll, waitReady } from '../../scripts/lib/processes.js';
import { freePort, LOG_FILE, startApp } from './app.js';

/**
 * Starts the stack; `env` is added to the app's environment (both topologies), `replicas` is the number of
 * each service's processes when distributed. `ready()` waits for the app; `close()` stops and removes it all.
 */
export async function startEventStack({ distributed = false, replicas, env = {} } = {}) {
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const database = await createTestDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const suffix = randomBytes(4).toString('hex');
  const shared = {
    DATABASE_URL: database.url,
    NATS_URL: natsUrl,
    NATS_STREAM: `BENCH_${suffix}`,
    EVENTS_SUBJECT_PREFIX: `bench${suffix}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'warn',
    SCRYPT_COST: '10',
    ...env,
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'asistente-bench-'));
  process.env.NATS_URL ??= natsUrl;
  // Distributed: the gateway and each service a process (the launcher's), on this run's database and stream.
  const distributedApp = distributed ? await startApp({ distributed: true, databaseUrl: database.url, replicas, env }) : undefined;
  if (distributedApp) Object.assign(shared, distributedApp.restart.env, { NATS_URL: natsUrl });
  const port = await freePort();
  // Otherwise every service in one process, but on PostgreSQL and JetStream: the durable consumer is the app's.
  const app = distributedApp
    ? undefined
    : startNode('app', path.resolve('gateway/dist/main.js'), { ...process.env, ...shared, DATA_DIR: dataDir, PORT: String(port) }, {
        output: createWriteStream(LOG_FILE, { flags: 'a' }),
      });
  const baseUrl = distributedApp?.url ?? `http://127.0.0.1:${port}`;
  const producer = await createPlatform(loadConfig({}, { ...shared, DATA_DIR: dataDir, MIGRATE_ON_START: false }), 'bench-producer', {
    log: createLogger('warn', 'bench-producer'),
  });
  return {
    baseUrl,
    producer,
    ready: async () => {
      if (app) await waitReady(`${baseUrl}/ready`, app);
    },
    close: async () => {
      await producer.close();
      if (app) await stopAll([app]);
      await distributedApp?.stop();
      rmSync(dataDir, { recursive: true, force: true });
      const nc = await connect({ servers: natsUrl });
      await (await jetstreamManager(nc)).streams.delete(shared.NATS_STREAM).catch(() => undefined);
      await nc.close();
      await database.drop();
    },
  };
}
