import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import Fastify from 'fastify';
import { Agent } from 'undici';
import t from 'tap';
import { createTestPlatform, signToken } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { ROUTES } from '../src/routing-table.js';

/** Requests to `/contacts/held` wait until the test releases them. */
let releaseHeld = () => {};
let held = Promise.resolve();
/** Called when a replica's `/contacts/live` request is closed. */
let liveClosed = () => {};

/** A replica of "contacts": counts the requests it served and the bytes of each upload. */
async function replica(t: { teardown(fn: () => unknown): void }, name: string, hits: string[]): Promise<string> {
  const app = Fastify();
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));
  app.get('/ready', async () => ({ status: 'ready' }));
  app.get('/contacts', async () => {
    hits.push(name);
    return { items: [], total: 0 };
  });
  // Any other contact: which path the replica was asked.
  app.get('/contacts/:id', async (request) => {
    hits.push(`${name} ${request.url}`);
    return {};
  });
  app.get('/contacts/held', async () => {
    hits.push(`${name} held`);
    await held;
    return { items: [], total: 0 };
  });
  // An export: 1.5 MB written in pieces with no length, and two cookies, as a service streams one.
  app.get('/contacts/export', (_request, reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'set-cookie': ['a=1', 'b=2'], 'x-rows': '30000' });
    for (let i = 0; i < 30_000; i++) reply.raw.write(`${String(i).padStart(8, '0')},${'x'.repeat(40)}\n`);
    reply.raw.end();
  });
  // A live stream: writes until its client is gone, then says so.
  app.get('/contacts/live', (request, reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    const tick = setInterval(() => reply.raw.write('data: {}\n\n'), 5);
    request.raw.once('close', () => {
      clearInterval(tick);
      liveClosed();
    });
  });
  app.post('/contacts/import', async (request) => {
    let bytes = 0;
    for await (const chunk of request.body as AsyncIterable<Buffer>) bytes += chunk.length;
    return { bytes };
  });
  t.teardown(() => app.close());
  return app.listen({ port: 0, host: '127.0.0.1' });
}

async function deadUrl(): Promise<string> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(`http://127.0.0.1:${port}`));
    });
  });
}

const hits: string[] = [];
const first = await replica(t, 'a', hits);
const second = await replica(t, 'b', hits);
const dead = await deadUrl();
const urls = Object.fromEntries(ROUTES.map((r) => [r.urlVariable, dead]));
const platform = await createTestPlatform(t, { config: { ...urls, CONTACTS_URL: `${first},${second}` } });
const gateway = await buildGateway(platform, 'distributed');
const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
t.teardown(() => gateway.close());
const { authorization } = signToken(gateway);

t.test('several replicas of a service: requests are spread over them', async (t) => {
  hits.length = 0;
  for (let i = 0; i < 6; i++) t.equal((await gateway.inject({ url: '/api/contacts', headers: { authorization } })).statusCode, 200);
  t.same([...hits].sort(), ['a', 'a', 'a', 'b', 'b', 'b']);
});

t.test('while one replica is stuck on a request, the next requests go to the other', async (t) => {
  hits.length = 0;
  held = new Promise((resolve) => (releaseHeld = resolve));
  const stuck = gateway.inject({ url: '/api/contacts/held', headers: { authorization } });
  while (hits.length === 0) await new Promise((resolve) => setImmediate(resolve));
  const [stuckOn] = hits[0]!.split(' ');
  for (let i = 0; i < 4; i++) t.equal((await gateway.inject({ url: '/api/contacts', headers: { authorization } })).statusCode, 200);
  t.same(hits.slice(1), Array(4).fill(stuckOn === 'a' ? 'b' : 'a'), 'none waits behind the stuck one');
  releaseHeld();
  t.equal((await stuck).statusCode, 200, 'the stuck request is answered once its replica is');
});

/** GET `path` sent as written (inject, fetch and a URL string would resolve its dot-segments first). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = httpRequest({ hostname, port, path, headers: { authorization } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

t.test('a dot-segment reaches the replica resolved, as its plain spelling would; one hidden in an escape is refused', async (t) => {
  hits.length = 0;
  for (const path of ['/api/contacts/./x', '/api/contacts/y/../x', '/api/contacts/%2e/x', '/api/contacts/y/.%2E/x']) {
    t.equal((await rawGet(path)).status, 200, path);
  }
  t.same(hits.map((hit) => hit.split(' ')[1]), Array(4).fill('/contacts/x'), 'each replica saw the plain path');
  hits.length = 0;
  for (const path of ['/api/contacts/a%5c..%5cb', '/api/contacts/a%2F..%2F..%2Fauth', '/api/contacts/%C0%AE%C0%AE/x', '/api/contacts//x', '/api/../../x']) {
    const res = await rawGet(path);
    t.equal(res.status, 400, path);
    t.match(JSON.parse(res.body), { code: 'BAD_URL', message: 'La dirección de la petición no es válida' }, path);
  }
  t.same(hits, [], 'no replica was asked');
  t.equal((await rawGet('/api/contacts?search=a..b%2e')).status, 200, 'dots in the query are data');
});

t.test('a service that is down answers 503 in Spanish naming it, never 500', async (t) => {
  const res = await gateway.inject({ url: '/api/ai/assistant', headers: { authorization } });
  t.equal(res.statusCode, 503);
  t.match(res.json(), { statusCode: 503, code: 'UPSTREAM_UNAVAILABLE', error: 'Service Unavailable', message: /no está disponible/, service: 'ai' });
});

t.test("the gateway's /ready names the services it cannot reach", async (t) => {
  const res = await gateway.inject({ url: '/ready' });
  t.equal(res.statusCode, 503);
  const body = res.json<{ checks: Record<string, string>; missing: string[] }>();
  t.equal(body.checks.contacts, 'ok');
  t.same([...body.missing].sort(), ROUTES.map((r) => r.name).filter((n) => n !== 'contacts').sort());
});

t.test('a large upload sent with Expect: 100-continue goes through the gateway', async (t) => {
  const csv = Buffer.from(`Nombre,Apellido\n${'Ana,López\n'.repeat(200_000)}`);
  const answer = await new Promise<{ status: number; body: string; continued: boolean }>((resolve, reject) => {
    let continued = false;
    const req = httpRequest(`${base}/api/contacts/import`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'text/csv', 'content-length': csv.length, expect: '100-continue' },
    });
    req.on('continue', () => {
      continued = true;
      req.end(csv);
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, continued }));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
  t.ok(answer.continued, 'the gateway said 100 Continue');
  t.equal(answer.status, 200, answer.body);
  t.same(JSON.parse(answer.body), { bytes: csv.length });
});

t.test('a large answer of unknown length streams through whole, headers and all', async (t) => {
  const res = await fetch(`${base}/api/contacts/export`, { headers: { authorization } });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.equal(res.headers.get('x-rows'), '30000');
  t.same(res.headers.getSetCookie(), ['a=1', 'b=2'], 'each cookie its own header');
  const lines = (await res.text()).split('\n');
  t.equal(lines.length, 30_001);
  t.equal(lines[29_999], `00029999,${'x'.repeat(40)}`, 'the last line, in order');
  t.ok(lines.slice(0, 30_000).every((line, i) => line.startsWith(String(i).padStart(8, '0'))), 'every line, in order');
});

t.test('a client that leaves a live stream ends the request at the replica', async (t) => {
  const closed = new Promise<void>((resolve) => (liveClosed = resolve));
  const ended = new AbortController();
  // An agent of its own, ended after: fetch's shared one keeps a second connection to the gateway open,
  // and the gateway's close waited on it for its keep-alive timeout (70 s of this file's 75).
  const agent = new Agent();
  t.teardown(() => agent.destroy());
  const res = await fetch(`${base}/api/contacts/live`, { headers: { authorization }, signal: ended.signal, dispatcher: agent } as RequestInit);
  t.equal(res.headers.get('content-type'), 'text/event-stream');
  const reader = res.body!.getReader();
  t.match(new TextDecoder().decode((await reader.read()).value), 'data: {}', 'events come through');
  ended.abort();
  await closed;
  t.pass('the replica saw its request close');
});
