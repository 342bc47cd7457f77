import type { AddressInfo } from 'node:net';
import { authPlugin, createHttpApp, type App, type Config, type Platform, type ServicePlugin } from '@asistente/kit';
import { createTestPlatform, type Teardown } from '@asistente/kit/testing';
import { buildGateway } from '../../src/gateway.js';
import { ROUTES } from '../../src/routing-table.js';

/** `services` in one app listening on a free port, as their processes would serve them behind a gateway. */
export async function servicesBehind(t: Teardown, platform: Platform, services: ServicePlugin[]): Promise<string> {
  const app = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES, streams: platform.streams });
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  for (const service of services) await app.register(service, { platform });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * A distributed gateway of its own (its own platform, as another gateway process has) in front of `url` for
 * every service, on `platform`'s database and token secret, ready.
 */
export async function distributedGateway(t: Teardown, platform: Platform, url: string, config: Partial<Config> = {}): Promise<App> {
  const own = await createTestPlatform(t, {
    config: {
      ...Object.fromEntries(ROUTES.map((r) => [r.urlVariable, url])),
      DATABASE_URL: platform.config.DATABASE_URL,
      JWT_SECRET: platform.tokens.secret,
      ...config,
    },
  });
  const gateway = await buildGateway(own, 'distributed');
  await gateway.ready();
  t.teardown(() => gateway.close());
  return gateway;
}

/**
 * Two gateways in front of `services`, as two gateway processes would be: embedded (no DATABASE_URL), the one
 * embedded gateway twice; otherwise two distributed gateways, each with its own platform, over the services.
 */
export async function twoGateways(t: Teardown, platform: Platform, services: ServicePlugin[], config: Partial<Config> = {}): Promise<[App, App]> {
  if (!platform.config.DATABASE_URL) {
    const gateway = await buildGateway(platform, 'embedded');
    await gateway.ready();
    t.teardown(() => gateway.close());
    return [gateway, gateway];
  }
  const url = await servicesBehind(t, platform, services);
  return [await distributedGateway(t, platform, url, config), await distributedGateway(t, platform, url, config)];
}
