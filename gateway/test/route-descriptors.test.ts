// Proves every route descriptor other services call by matches a route its service registers: method, path and the same schema objects.
import t from 'tap';
import type { TSchema } from '@sinclair/typebox';
import * as contracts from '@asistente/contracts';
import type { RouteDescriptor } from '@asistente/contracts';
import { authPlugin, createHttpApp, type App } from '@asistente/kit';
import { createTestPlatform, type RouteWithSchema } from '@asistente/kit/testing';
import { API_PREFIX, ROUTES } from '../src/routing-table.js';

const platform = await createTestPlatform(t);

/** Every route each service registers, by service, seen by an onRoute hook of this test's own. */
async function routesByService(): Promise<Map<string, RouteWithSchema[]>> {
  const byService = new Map<string, RouteWithSchema[]>();
  for (const service of ROUTES) {
    const app: App = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES });
    const seen: RouteWithSchema[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') seen.push({ method, url: route.url, schema: route.schema as RouteWithSchema['schema'] });
    });
    await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
    const { default: plugin } = await service.load();
    await app.register(plugin, { prefix: API_PREFIX, platform });
    await app.ready();
    await app.close();
    byService.set(service.name, seen);
  }
  return byService;
}

/** Every descriptor the contracts export, in their `<service>Routes` groups. */
const descriptors: [string, RouteDescriptor][] = Object.entries(contracts)
  .filter(([name, value]) => name.endsWith('Routes') && typeof value === 'object' && value !== null)
  .flatMap(([group, routes]) => Object.entries(routes as Record<string, RouteDescriptor>).map(([name, descriptor]): [string, RouteDescriptor] => [`${group}.${name}`, descriptor]));

const registered = await routesByService();

t.ok(descriptors.length >= 40, `the descriptors are found (${descriptors.length})`);

for (const [name, descriptor] of descriptors) {
  t.test(`${name}: ${descriptor.method} ${descriptor.path}`, async (t) => {
    const routes = registered.get(descriptor.service);
    t.ok(routes, `${descriptor.service} is a service the gateway routes`);
    const route = routes?.find((r) => r.method === descriptor.method && r.url === `${API_PREFIX}${descriptor.path}`);
    if (!route) return t.fail(`${descriptor.service} registers no ${descriptor.method} ${descriptor.path}`);
    const schema = route.schema ?? {};
    const success = Object.entries(schema.response ?? {}).filter(([status]) => status.startsWith('2'));
    t.equal(success.length, 1, 'one success answer');
    t.equal(success[0]?.[1], descriptor.response, 'the success answer is the descriptor response schema');
    t.equal(schema.body as TSchema | undefined, descriptor.body, 'the same body schema');
    t.equal(schema.querystring as TSchema | undefined, descriptor.query, 'the same query schema');
    t.equal(schema.params as TSchema | undefined, descriptor.params, 'the same params schema');
  });
}
