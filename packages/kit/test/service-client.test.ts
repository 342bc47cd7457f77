import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDecoder } from 'fast-jwt';
import t from 'tap';
import { Type } from '@sinclair/typebox';
import { route } from '@asistente/contracts';
import { callerOf, requireAuth, ServiceAnswerError, ServiceCallError, ServiceClient, type App, type ServicePlugin } from '../src/index.js';
import { buildServicesApp, createTestPlatform, insertAccount } from '../src/testing/index.js';

const Anything = Type.Unknown();
const WhoAmI = route({ service: 'contacts', method: 'GET', path: '/contacts/whoami', query: Type.Object({ search: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()), skipped: Type.Optional(Type.String()) }), response: Anything });
const Echo = route({ service: 'contacts', method: 'POST', path: '/contacts/echo', body: Type.Object({ a: Type.Integer() }), response: Anything });
const Missing = route({ service: 'contacts', method: 'GET', path: '/contacts/missing', response: Anything });
const List = route({ service: 'contacts', method: 'GET', path: '/contacts', response: Anything });
const Emails = route({ service: 'email', method: 'GET', path: '/emails', response: Anything });

/** A sibling that answers with the identity it was called for, as a real service would see it. */
const whoAmI: ServicePlugin = async (fastify) => {
  const app = fastify as unknown as App;
  requireAuth(app);
  app.get('/contacts/whoami', async (request) => ({ userId: request.user.id, query: request.query }));
  app.post('/contacts/echo', async (request, reply) => reply.code(201).send({ got: request.body }));
  app.get('/contacts/missing', async (_request, reply) => reply.code(404).send({ message: 'No encontrado' }));
};

t.test('embedded: a sibling is asked in-process, as the user, with the query and body', async (t) => {
  const platform = await createTestPlatform(t);
  await buildServicesApp(t, [whoAmI], platform);
  const userId = randomUUID();
  // No auth service here to create the user: the token check is told it exists (tokens of unknown users are refused).
  platform.revocations.vouchForTestUser(userId);

  t.equal(platform.services.available('contacts'), true);
  const me = await platform.services.call(WhoAmI, userId, {
    query: { search: 'ana maría', limit: 5, skipped: undefined },
  });
  t.same(me, { userId, query: { search: 'ana maría', limit: '5' } });
  t.same(await platform.services.call(Echo, userId, { body: { a: 1 } }), { got: { a: 1 } });

  const error = await platform.services.call(Missing, userId).catch((e: unknown) => e);
  t.ok(error instanceof ServiceCallError);
  t.match(error, { service: 'contacts', statusCode: 404, body: { message: 'No encontrado' } });
});

t.test('the token it presents is scoped to the user and lives one minute', async (t) => {
  let seen: IncomingHttpHeaders = {};
  const server = createServer((request, response) => {
    seen = request.headers;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tokens = { secret: 'x'.repeat(32), issuer: 'iss', audience: 'aud', ttlSeconds: 604_800 };
  const client = new ServiceClient({ CONTACTS_URL: url }, tokens);
  const userId = randomUUID();

  t.same(await client.call(List, userId), { ok: true });
  const claims = createDecoder()(String(seen.authorization).replace('Bearer ', '')) as Record<string, number | string>;
  t.equal(claims.sub, userId);
  t.equal(claims.iss, 'iss');
  t.equal(claims.aud, 'aud');
  t.ok(typeof claims.jti === 'string' && claims.jti.length > 0);
  t.equal(Number(claims.exp) - Number(claims.iat), 60);
});

t.test('a member\'s call presents the member, the workspace and the role: the sibling sees who acts, with its role table', async (t) => {
  const platform = await createTestPlatform(t);
  const roles: ServicePlugin = async (fastify) => {
    const app = fastify as unknown as App;
    requireAuth(app);
    app.get('/contacts/whoami', async (request) => ({ id: request.user.id, workspaceId: request.user.workspaceId, role: request.user.role }));
    // A path the role table closes to agents: the sibling refuses it to an agent's call as to the agent.
    app.post('/contacts/bulk/delete', async () => ({ deleted: 0 }));
  };
  await buildServicesApp(t, [roles], platform);
  const BulkDelete = route({ service: 'contacts', method: 'POST', path: '/contacts/bulk/delete', body: Type.Object({}), response: Anything });
  const [workspaceId, actorId] = [await insertAccount(platform.db.sql), await insertAccount(platform.db.sql)];
  await platform.db.sql`insert into auth.members (workspace_id, user_id, role) values (${workspaceId}, ${actorId}, 'agent')`;
  const agent = callerOf({ id: actorId, workspaceId, role: 'agent' });

  t.same(await platform.services.call(WhoAmI, agent), { id: actorId, workspaceId, role: 'agent' });
  t.same(await platform.services.call(WhoAmI, workspaceId), { id: workspaceId, workspaceId, role: 'owner' }, 'the workspace on its own behalf');
  const refused = await platform.services.call(BulkDelete, agent, { body: {} }).catch((e: unknown) => e);
  t.match(refused, { statusCode: 403, body: { code: 'ROLE_FORBIDDEN' } });
  await platform.db.sql`delete from auth.members where workspace_id = ${workspaceId} and user_id = ${actorId}`;
  platform.revocations.memberLeft(workspaceId, actorId);
  const gone = await platform.services.call(WhoAmI, agent).catch((e: unknown) => e);
  t.match(gone, { statusCode: 401 }, 'a member who left calls nothing any more');
});

t.test('distributed: a sibling without a URL, or down, is unavailable (503), never a hang', async (t) => {
  const tokens = { secret: 'x'.repeat(32), issuer: 'iss', audience: 'aud', ttlSeconds: 60 };
  const none = new ServiceClient({}, tokens);
  t.equal(none.available('email'), false);
  t.match(await none.call(Emails, randomUUID()).catch((e: unknown) => e), { statusCode: 503 });

  const down = new ServiceClient({ EMAIL_URL: 'http://127.0.0.1:9' }, tokens);
  t.equal(down.available('email'), true);
  t.match(await down.call(Emails, randomUUID()).catch((e: unknown) => e), { statusCode: 503 });
});

t.test('distributed: several replicas in one URL list; a refused one is skipped, each request reaches one replica once', async (t) => {
  const tokens = { secret: 'x'.repeat(32), issuer: 'iss', audience: 'aud', ttlSeconds: 60 };
  const served: string[] = [];
  const server = createServer((request, response) => {
    served.push(`${request.method} ${request.url}`);
    response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const live = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port just freed: nothing listens there, the connection is refused (fetch never tries port 9, "bad port").
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  const refused = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
  await new Promise((resolve) => gone.close(resolve));
  const client = new ServiceClient({ CONTACTS_URL: `${refused}, ${live}/` }, tokens);
  const Update = route({ service: 'contacts', method: 'PUT', path: '/contacts/:id', body: Type.Object({ n: Type.Integer() }), response: Anything });
  for (let i = 0; i < 4; i++) t.same(await client.call(Update, randomUUID(), { params: { id: `a/${i}` }, body: { n: i } }), { ok: true });
  t.same(served, ['PUT /contacts/a%2F0', 'PUT /contacts/a%2F1', 'PUT /contacts/a%2F2', 'PUT /contacts/a%2F3'], 'four requests, four served, none twice, each path value encoded');

  const wrongBody = { n: 'cuatro' } as unknown as { n: number };
  const refusedHere = await client.call(Update, randomUUID(), { params: { id: 'x' }, body: wrongBody }).catch((e: unknown) => e);
  t.ok(refusedHere instanceof ServiceCallError, "a body outside the route's schema is refused here");
  t.match((refusedHere as ServiceCallError).body, { statusCode: 400, code: 'VALIDATION_ERROR', message: 'El campo "n" debe ser de tipo número entero' }, 'as the route would answer it, in Spanish');
  t.equal(served.length, 4, 'and never sent');
});

t.test('call checks the answer against the contract schema: the declared shape comes back typed, anything else is a logged ServiceAnswerError', async (t) => {
  const server = createServer((request, response) => {
    const body = request.url === '/contacts/right' ? { contacts: [{ id: randomUUID(), name: 'Ana' }], total: 1 } : { data: [{ id: 'x', nombre: 'Ana' }], total: '1' };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.teardown(() => server.close());
  const logged: Record<string, unknown>[] = [];
  const log = { error: (details: Record<string, unknown>) => void logged.push(details) };
  const tokens = { secret: 'x'.repeat(32), issuer: 'iss', audience: 'aud', ttlSeconds: 60 };
  const client = new ServiceClient({ CONTACTS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, tokens, log);
  const Page = Type.Object({ contacts: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() })), total: Type.Integer() });
  const Right = route({ service: 'contacts', method: 'GET', path: '/contacts/right', response: Page });
  const Wrong = route({ service: 'contacts', method: 'GET', path: '/contacts/wrong', response: Page });

  const page = await client.call(Right, randomUUID());
  t.equal(page.contacts[0]!.name, 'Ana');
  t.equal(page.total, 1);

  const error = await client.call(Wrong, randomUUID()).catch((e: unknown) => e);
  t.ok(error instanceof ServiceAnswerError);
  t.ok(error instanceof ServiceCallError, 'callers that handle a failing sibling handle this one too');
  t.match(error, { service: 'contacts', statusCode: 502, path: '/contacts/wrong', body: { message: 'La respuesta del servicio contacts no tiene la forma acordada' } });
  t.match((error as ServiceAnswerError).problem, /contacts/);
  t.same(logged, [{ service: 'contacts', path: '/contacts/wrong', problem: (error as ServiceAnswerError).problem }], 'logged once, with where it broke and no values');
});
