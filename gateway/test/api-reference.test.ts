import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { authPlugin, createHttpApp, type App } from '@asistente/kit';
import { createTestPlatform, schemasThatDoNotCompile, type RouteWithSchema } from '@asistente/kit/testing';
import { collectApiDocument } from '../src/api-reference/collect-document.js';
import { SERVICE_TAGS } from '../src/api-reference/openapi-options.js';
import { buildGateway } from '../src/gateway.js';
import { personalTokenRoles } from '@asistente/contracts';
import { API_PREFIX, isPublic, ROUTES, routeFor } from '../src/routing-table.js';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { description: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

const urls = Object.fromEntries(ROUTES.map((route) => [route.urlVariable, 'http://127.0.0.1:9']));
const [embeddedPlatform, distributedPlatform, routesPlatform] = await Promise.all([
  createTestPlatform(t),
  createTestPlatform(t, { config: urls }),
  createTestPlatform(t),
]);

const embedded = await buildGateway(embeddedPlatform, 'embedded');
await embedded.ready();
t.teardown(() => embedded.close());

// The distributed gateway serves what the build step collects (the same function npm run build runs).
const built = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'openapi.json');
writeFileSync(built, JSON.stringify(await collectApiDocument()));
const distributed = await buildGateway(distributedPlatform, 'distributed', { apiReference: { file: built } });
await distributed.ready();
t.teardown(() => distributed.close());

/** Every route every service registers, seen by a hook of this test's own (not through @fastify/swagger). */
type Registered = RouteWithSchema;
async function registeredRoutes(): Promise<Registered[]> {
  const app: App = createHttpApp({ log: routesPlatform.log, bodyLimit: routesPlatform.config.BODY_LIMIT_BYTES });
  const seen: Registered[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') seen.push({ method, url: route.url, schema: route.schema as Registered['schema'] });
  });
  await app.register(authPlugin, { tokens: routesPlatform.tokens, revocations: routesPlatform.revocations });
  for (const route of ROUTES) {
    const { default: plugin } = await route.load();
    await app.register(plugin, { prefix: API_PREFIX, platform: routesPlatform });
  }
  await app.ready();
  await app.close();
  return seen;
}

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
/** The document as a client without a token gets it. */
const documentOf = async (app: App) => {
  const res = await app.inject({ url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`/api/openapi.json answered ${res.statusCode}: ${res.body}`);
  return res.json<Document>();
};

t.test('one OpenAPI 3.1 document, valid, the same in both topologies', async (t) => {
  const document = await documentOf(embedded);
  t.equal(document.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(document);
  t.equal(validator.version, '3.1');
  t.ok(result.valid, `valid OpenAPI: ${JSON.stringify(result.errors)}`);
  t.same(await documentOf(distributed), document, 'the distributed gateway serves the same document');
  t.match(document.components.securitySchemes, {
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    personalToken: { type: 'http', scheme: 'bearer', description: /Token de acceso personal/ },
  });
});

t.test('every route of the routing table is documented, with a summary, a tag and its success answer', async (t) => {
  const document = await documentOf(embedded);
  const routes = await registeredRoutes();
  t.ok(routes.length > 100, `${routes.length} routes registered`);
  const documented = new Set<string>();
  for (const { method, url, schema } of routes) {
    const name = `${method} ${url}`;
    t.ok(url.startsWith(`${API_PREFIX}/`), `${name} is under /api`);
    const servicePath = url.slice(API_PREFIX.length);
    const route = routeFor(servicePath);
    if (!route) {
      t.fail(`${name} belongs to no entry of the routing table`);
      continue;
    }
    const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
    if (!operation) {
      t.fail(`${name} is missing from the API reference`);
      continue;
    }
    documented.add(`${method.toLowerCase()} ${openApiPath(url)}`);
    t.match(operation.summary, /\S/, `${name} has a summary`);
    t.same(operation.tags, [SERVICE_TAGS[route.name]], `${name} sits under its service`);
    const publicRoute = isPublic(route, method, servicePath);
    const roles = personalTokenRoles(method, servicePath);
    t.same(operation.security, publicRoute ? [] : roles ? [{ bearerAuth: [] }, { personalToken: roles }] : [{ bearerAuth: [] }], `${name} security`);
    if (route.name === 'auth') t.notOk(roles, `${name}: never a personal token`);
    const declared = schema?.response ?? {};
    const success = Object.keys(declared).filter((status) => /^[23]/.test(status));
    // A method a route refuses by design (the stateless MCP server's GET and DELETE) documents its 405 instead.
    t.ok(success.length > 0 || '405' in declared, `${name} declares a response schema for its success status`);
    for (const status of success) {
      const response = operation.responses[status];
      t.ok(response, `${name} ${status} is in the document`);
      // No body by declaration: 204, redirects, and an answer declared as null (MCP's 202 to a notification).
      if (status === '204' || status.startsWith('3') || (declared[status] as { type?: string }).type === 'null') continue;
      const bodies = Object.values(response?.content ?? {});
      t.ok(bodies.length > 0 && bodies.every((body) => body.schema && Object.keys(body.schema).length > 0), `${name} ${status} has a body schema`);
    }
  }
  const extra = Object.entries(document.paths)
    .flatMap(([url, methods]) => Object.keys(methods).map((method) => `${method} ${url}`))
    .filter((operation) => !documented.has(operation) && !/^get \/(health|ready)$/.test(operation));
  t.same(extra, [], 'nothing documented that no service registers');
  t.comment(`${documented.size} operations of the services documented`);
});

t.test("every route's schemas compile with the house's compilers (the served app compiles each by its route's first request)", async (t) => {
  const routes = await registeredRoutes();
  t.same(schemasThatDoNotCompile(routes), [], `${routes.length} routes: request parts and answers`);
});

t.test('the probes are documented as public', async (t) => {
  const { paths } = await documentOf(embedded);
  for (const probe of ['/health', '/ready']) t.match(paths[probe]?.get, { security: [], tags: ['Estado'], summary: /\S/ });
});

for (const [topology, app] of [['embedded', embedded], ['distributed', distributed]] as const) {
  t.test(`${topology}: /api/docs is swagger-ui, public, with every asset it loads`, async (t) => {
    const page = await app.inject({ url: '/api/docs' });
    t.equal(page.statusCode, 200);
    t.match(page.headers['content-type'], /text\/html/);
    t.match(page.body, /<div id="swagger-ui"><\/div>/);
    t.match(page.headers['content-security-policy'], /script-src 'self'/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    t.ok(assets.length >= 5, `${assets.length} assets`);
    for (const asset of assets) {
      const url = new URL(asset, 'http://localhost/api/docs').pathname;
      t.ok(url.startsWith('/api/docs/static/'), `${url} under /api/docs`);
      const res = await app.inject({ url });
      t.equal(res.statusCode, 200, url);
      t.ok(res.rawPayload.length > 0, `${url} is not empty`);
    }
    const initializer = await app.inject({ url: '/api/docs/static/swagger-initializer.js' });
    t.match(initializer.body, /resolveUrl\('\.\/json'\)/, 'the UI loads the document next to it');
    t.same((await app.inject({ url: '/api/docs/json' })).json(), await documentOf(app), 'the document the UI loads');
    t.match((await app.inject({ url: '/api/docs/static/swagger-ui-bundle.js' })).headers['content-type'], /javascript/);
  });
}

t.test('a distributed gateway without a built document says so, in Spanish, and still serves the API', async (t) => {
  const platform = await createTestPlatform(t, { config: urls });
  const app = await buildGateway(platform, 'distributed', { apiReference: { file: path.join(tmpdir(), 'no-existe', 'openapi.json') } });
  await app.ready();
  t.teardown(() => app.close());
  for (const url of ['/api/openapi.json', '/api/docs']) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 503, url);
    t.same(res.json(), {
      statusCode: 503,
      code: 'API_REFERENCE_NOT_BUILT',
      error: 'Service Unavailable',
      message: 'La referencia de la API no está generada: ejecuta npm run build.',
    });
  }
  t.equal((await app.inject({ url: '/api/contacts' })).statusCode, 401, 'the token gate still guards the API');
});
