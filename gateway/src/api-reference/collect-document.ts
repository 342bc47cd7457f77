import { createPlatform, loadConfig, type Config } from '@asistente/kit';
import { buildGateway } from '../gateway.js';

/**
 * The API document as the embedded gateway serves it: every service plugin registered in this process on
 * a throwaway in-memory database and event bus (no server, no NATS, no listening socket), the document read from the
 * routes they declared. The distributed gateway serves what this returns, so both topologies answer the
 * same document from the same registration code.
 */
export async function collectApiDocument(overrides: Partial<Config> = {}): Promise<unknown> {
  // No environment (for the services' settings either): the document must not depend on the machine that builds it.
  const source = { DATA_DIR: 'memory://', LOG_LEVEL: 'warn', MIGRATE_ON_START: false, ...overrides, DATABASE_URL: undefined, NATS_URL: undefined };
  const config = loadConfig({}, source);
  const platform = await createPlatform(config, 'openapi', { source });
  try {
    const app = await buildGateway(platform, 'embedded', { apiReference: { collect: true } });
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await platform.close();
  }
}
