import { connect } from 'node:net';
import { Type } from '@sinclair/typebox';
import t from 'tap';
import { createHttpApp, createLogger, trustProxySetting, type App } from '../src/index.js';
import type { Teardown } from '../src/testing/index.js';

const log = createLogger('silent', 'test');
const SHAPE = { statusCode: Number, code: String, error: String, message: String };

async function demoApp(t: Teardown, trustProxy?: string): Promise<App> {
  const app = createHttpApp({ log, bodyLimit: 2048, trustProxy: trustProxy === undefined ? undefined : trustProxySetting(trustProxy) });
  app.get('/items', { schema: { querystring: Type.Object({ page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }), search: Type.Optional(Type.String()), n: Type.Optional(Type.Number()) }) } }, async (request) => ({ query: request.query }));
  app.get('/items/:id', async (request) => ({ params: request.params }));
  app.get('/free', async (request) => ({ query: request.query }));
  app.post('/items', { schema: { body: Type.Object({ name: Type.String(), notes: Type.Optional(Type.String()), extra: Type.Optional(Type.Unknown()) }) } }, async (request) => ({ body: request.body }));
  app.post('/text', async (request) => ({ length: String(request.body).length }));
  app.get('/ip', async (request) => ({ ip: request.ip }));
  app.get('/db-down', async () => {
    throw Object.assign(new Error('write CONNECT_TIMEOUT 10.0.0.1:5432'), { code: 'CONNECT_TIMEOUT' });
  });
  app.get('/stream', async (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.end('data: {}\n\n');
  });
  await app.ready();
  t.teardown(() => app.close());
  return app;
}

t.test('NUL and control characters are refused with a Spanish 400 wherever they come (one check for every route)', async (t) => {
  const app = await demoApp(t);
  const cases: [string, { method: 'GET' | 'POST'; url: string; payload?: string; headers?: Record<string, string> }][] = [
    ['query with a schema', { method: 'GET', url: '/items?search=a%00b' }],
    ['query without a schema', { method: 'GET', url: '/free?tag=a%00b' }],
    ['query with a control character', { method: 'GET', url: '/free?tag=a%1Bb' }],
    ['path param', { method: 'GET', url: '/items/a%00b' }],
    ['JSON string', { method: 'POST', url: '/items', payload: JSON.stringify({ name: 'a\u0000b' }) }],
    ['JSON nested', { method: 'POST', url: '/items', payload: JSON.stringify({ name: 'x', extra: [{ deep: ['a\u0007'] }] }) }],
    ['JSON key', { method: 'POST', url: '/items', payload: JSON.stringify({ name: 'x', extra: { 'k\u0000': 1 } }) }],
    ['lone surrogate', { method: 'POST', url: '/items', payload: '{"name":"a\\ud800b"}' }],
    ['text body', { method: 'POST', url: '/text', payload: 'hola\u0000', headers: { 'content-type': 'text/plain' } }],
  ];
  for (const [name, request] of cases) {
    const res = await app.inject({ ...request, headers: { 'content-type': 'application/json', ...request.headers } });
    t.equal(res.statusCode, 400, name);
    t.match(res.json(), { ...SHAPE, code: 'INVALID_CHARACTERS', message: /caracteres no permitidos/ }, name);
  }
  const ok = await app.inject({ method: 'POST', url: '/items', payload: { name: 'Ana', notes: 'línea 1\nlínea 2\ttab' } });
  t.equal(ok.statusCode, 200, 'tabs and line breaks in a body field are text');
});

t.test('numbers that are not finite answer 400 instead of reaching the database', async (t) => {
  const app = await demoApp(t);
  for (const url of ['/items?page=1e999', '/items?page=Infinity', '/items?n=-Infinity', '/items?n=1e400']) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 400, url);
    t.match(res.json(), { ...SHAPE, message: /finitos|parámetro/ }, url);
  }
  t.equal((await app.inject({ url: '/items?page=2' })).statusCode, 200);
});

t.test('security headers on every answer: JSON, errors, 404 and hijacked streams', async (t) => {
  const app = await demoApp(t);
  for (const url of ['/items', '/nope', '/items?page=0', '/stream']) {
    const res = await app.inject({ url });
    t.equal(res.headers['x-content-type-options'], 'nosniff', url);
    t.equal(res.headers['referrer-policy'], 'no-referrer', url);
  }
});

t.test('framework-level answers keep the house shape in Spanish', async (t) => {
  const app = await demoApp(t);
  const big = await app.inject({ method: 'POST', url: '/items', payload: { name: 'x'.repeat(5000) } });
  t.equal(big.statusCode, 413, 'a body over the limit is 413');
  t.match(big.json(), { ...SHAPE, code: 'BODY_TOO_LARGE', message: 'El cuerpo de la petición es demasiado grande' });
  const badUrl = await app.inject({ url: '/items/%zz' });
  t.equal(badUrl.statusCode, 400);
  t.match(badUrl.json(), { ...SHAPE, code: 'BAD_URL', message: 'La dirección de la petición no es válida' });
  const badJson = await app.inject({ method: 'POST', url: '/items', payload: '{"name":', headers: { 'content-type': 'application/json' } });
  t.match(badJson.json(), { ...SHAPE, statusCode: 400, message: /JSON/ });
  const traversal = await app.inject({ url: '/items/../../etc/passwd' });
  t.equal(traversal.statusCode, 404);
  t.match(traversal.json(), { ...SHAPE, message: /Ruta no encontrada/ });
  const down = await app.inject({ url: '/db-down' });
  t.equal(down.statusCode, 503, 'a database that does not answer is a 503, not a 500');
  t.match(down.json(), { ...SHAPE, code: 'DATABASE_UNAVAILABLE', message: /no está disponible/ });
});

/** Sends raw bytes and reads the whole answer (the server closes after a client error). */
async function raw(port: number, request: string): Promise<{ status: number; headers: string; body: unknown }> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(request);
  await new Promise((resolve) => socket.once('close', resolve));
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(Buffer.from(body, 'latin1').toString('utf8')) };
}

t.test('errors from the HTTP parser (431, malformed) answer in the house shape', async (t) => {
  const app = await demoApp(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const huge = await raw(port, `GET /items HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  t.equal(huge.status, 431);
  t.match(huge.body, { ...SHAPE, code: 'HEADERS_TOO_LARGE', message: /cabeceras/ });
  t.match(huge.headers, /x-content-type-options: nosniff/);
  const malformed = await raw(port, 'GARBAGE\r\n\r\n');
  t.equal(malformed.status, 400);
  t.match(malformed.body, { ...SHAPE, code: 'BAD_REQUEST', message: /mal formada/ });
});

t.test('the client address comes from X-Forwarded-For only when a proxy is configured', async (t) => {
  const direct = await demoApp(t);
  const forged = await direct.inject({ url: '/ip', headers: { 'x-forwarded-for': '203.0.113.9' }, remoteAddress: '198.51.100.1' });
  t.equal(forged.json<{ ip: string }>().ip, '198.51.100.1', 'default: the header is ignored');
  const behindOne = await demoApp(t, '1');
  const viaProxy = await behindOne.inject({ url: '/ip', headers: { 'x-forwarded-for': '203.0.113.9' }, remoteAddress: '10.0.0.2' });
  t.equal(viaProxy.json<{ ip: string }>().ip, '203.0.113.9', 'TRUST_PROXY=1: the proxy in front tells the address');
  const listed = await demoApp(t, '10.0.0.0/8');
  const fromOutside = await listed.inject({ url: '/ip', headers: { 'x-forwarded-for': '203.0.113.9' }, remoteAddress: '198.51.100.1' });
  t.equal(fromOutside.json<{ ip: string }>().ip, '198.51.100.1', 'a peer outside the configured proxies cannot forge it');
});
