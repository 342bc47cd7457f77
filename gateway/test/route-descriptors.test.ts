// Proves every route descriptor in packages/contracts has its route in the embedded gateway under /api, registered with the descriptor's own schema objects.
import dc from 'node:diagnostics_channel';
import t from 'tap';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as contracts from '@asistente/contracts';
import type { RouteDescriptor } from '@asistente/contracts';
import { createTestPlatform, type RouteWithSchema } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { API_PREFIX, routeFor } from '../src/routing-table.js';

const platform = await createTestPlatform(t);

/**
 * Every route the embedded gateway registers, as it registers it: Fastify announces each instance it creates on
 * this channel, before any route, so the hook sees the services' plugins mounted exactly as the app mounts them.
 */
async function gatewayRoutes(): Promise<RouteWithSchema[]> {
  const seen: RouteWithSchema[] = [];
  const watch = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') seen.push({ method, url: route.url, schema: route.schema as RouteWithSchema['schema'] });
    });
  };
  dc.subscribe('fastify.initialization', watch);
  try {
    const app = await buildGateway(platform, 'embedded');
    await app.ready();
    await app.close();
  } finally {
    dc.unsubscribe('fastify.initialization', watch);
  }
  return seen;
}

/** Every descriptor the contracts export, in their `<service>Routes` groups. */
const descriptors: [string, RouteDescriptor][] = Object.entries(contracts)
  .filter(([name, value]) => name.endsWith('Routes') && typeof value === 'object' && value !== null)
  .flatMap(([group, routes]) => Object.entries(routes as Record<string, RouteDescriptor>).map(([name, descriptor]): [string, RouteDescriptor] => [`${group}.${name}`, descriptor]));

const registered = await gatewayRoutes();

t.ok(descriptors.length >= 44, `the descriptors are found (${descriptors.length})`);
t.ok(registered.length > descriptors.length, `the gateway's routes are seen (${registered.length})`);

for (const [name, descriptor] of descriptors) {
  t.test(`${name}: ${descriptor.method} ${descriptor.path}`, async (t) => {
    // Distributed, the service client sends to the descriptor's service: the gateway must route its path there too.
    t.equal(routeFor(descriptor.path)?.name, descriptor.service, `the gateway routes ${descriptor.path} to ${descriptor.service}`);
    const route = registered.find((r) => r.method === descriptor.method && r.url === `${API_PREFIX}${descriptor.path}`);
    if (!route) return t.fail(`the embedded gateway has no ${descriptor.method} ${API_PREFIX}${descriptor.path}`);
    const schema = route.schema ?? {};
    const success = Object.entries(schema.response ?? {}).filter(([status]) => status.startsWith('2'));
    t.equal(success.length, 1, 'one success answer');
    t.equal(success[0]?.[1], descriptor.response, 'the success answer is the descriptor response schema');
    t.equal(schema.body as TSchema | undefined, descriptor.body, 'the same body schema');
    t.equal(schema.querystring as TSchema | undefined, descriptor.query, 'the same query schema');
    t.equal(schema.params as TSchema | undefined, descriptor.params, 'the same params schema');
  });
}
