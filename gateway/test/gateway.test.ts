import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { WIDGET_SCRIPT_MAX_AGE_S } from '../src/static-web.js';

const web = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
mkdirSync(path.join(web, 'assets'));
writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Mi Asistente.IA</title><div id="root"></div>');
writeFileSync(path.join(web, 'assets', 'app.js'), 'console.log("ok")');

const platform = await createTestPlatform(t, {
  config: { WEB_DIST: web, RATE_LIMIT_REGISTER_MAX: 3, CORS_ORIGINS: 'http://localhost:5173' },
});
const app = await buildGateway(platform, 'embedded');
await app.ready();
t.teardown(() => app.close());

const register = (email: string) =>
  app.inject({ method: 'POST', url: '/api/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });

t.test('a user registers, creates, lists, searches and deletes through /api', async (t) => {
  const { token } = (await register('flujo@ejemplo.es')).json();
  const headers = { authorization: `Bearer ${token}` };
  const created = await app.inject({ method: 'POST', url: '/api/contacts', headers, payload: { firstName: 'Íñigo', lastName: 'Sáez' } });
  t.equal(created.statusCode, 201);
  t.equal((await app.inject({ url: '/api/contacts?search=inigo', headers })).json().total, 1);
  t.equal((await app.inject({ method: 'DELETE', url: `/api/contacts/${created.json().id}`, headers })).statusCode, 204);
  t.equal((await app.inject({ url: '/api/contacts', headers })).json().total, 0);
});

t.test('the token is checked at the edge before anything but public routes', async (t) => {
  for (const url of ['/api/contacts', '/api/contacts/stats', '/api/auth/me']) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 401, url);
    t.same(res.json(), { statusCode: 401, code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'Sesión inválida o expirada' });
  }
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nadie@ejemplo.es', password: 'secreto1' } });
  t.equal(login.statusCode, 401);
  t.equal(login.json().message, 'Correo o contraseña incorrectos', 'login reaches the service without a token');
  t.equal((await app.inject({ url: '/health' })).json().status, 'ok');
  t.equal((await app.inject({ url: '/ready' })).json().checks.database, 'ok');
});

t.test('unknown API paths answer 404 in the error shape', async (t) => {
  for (const url of ['/api/nada', '/api', '/api/contactos']) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 404, url);
    t.match(res.json(), { statusCode: 404, code: 'NOT_FOUND', error: 'Not Found' });
  }
});

t.test('the SPA is served with a fallback to index.html and a strict CSP', async (t) => {
  const page = await app.inject({ url: '/contacts' });
  t.equal(page.statusCode, 200);
  t.match(page.body, /Mi Asistente\.IA/);
  t.match(page.headers['content-security-policy'], /script-src 'self'/);
  t.equal((await app.inject({ url: '/' })).statusCode, 200);
  t.equal((await app.inject({ method: 'HEAD', url: '/analytics' })).statusCode, 200, 'HEAD of a client route');
  writeFileSync(path.join(web, 'assets', 'rebuilt.js'), 'console.log("new")');
  t.equal((await app.inject({ url: '/assets/rebuilt.js' })).statusCode, 200, 'files added after start are served');
  const asset = await app.inject({ url: '/assets/app.js' });
  t.equal(asset.statusCode, 200);
  t.match(asset.headers['cache-control'], /immutable/);
  t.equal((await app.inject({ url: '/assets/missing.js' })).statusCode, 404, 'missing files are not the SPA');
  writeFileSync(path.join(web, 'widget.js'), 'console.log("chat")');
  const widget = await app.inject({ url: '/widget.js' });
  t.equal(widget.headers['cache-control'], `public, max-age=${WIDGET_SCRIPT_MAX_AGE_S}`, 'the pasted widget is kept minutes, not forever');
  t.ok(widget.headers.etag, 'and asked again with its ETag');
  t.equal((await app.inject({ url: '/widget.js', headers: { 'if-none-match': String(widget.headers.etag) } })).statusCode, 304);
});

t.test('request ids: taken from the client when sane, generated otherwise', async (t) => {
  const given = await app.inject({ url: '/health', headers: { 'x-request-id': 'abc-123' } });
  t.equal(given.headers['x-request-id'], 'abc-123');
  const generated = await app.inject({ url: '/health', headers: { 'x-request-id': 'bad id with spaces' } });
  t.match(generated.headers['x-request-id'], /^[0-9a-f-]{36}$/);
});

t.test('CORS allows only the configured origins', async (t) => {
  const allowed = await app.inject({ method: 'OPTIONS', url: '/api/contacts', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } });
  t.equal(allowed.headers['access-control-allow-origin'], 'http://localhost:5173');
  const other = await app.inject({ method: 'OPTIONS', url: '/api/contacts', headers: { origin: 'https://malicioso.example', 'access-control-request-method': 'GET' } });
  t.notOk(other.headers['access-control-allow-origin']);
});

t.test('sign-up is rate-limited per address at the edge', async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await register(`limite${i}@ejemplo.es`)).statusCode);
  t.same(statuses.slice(-1), [429]);
  t.ok(statuses.filter((s) => s === 429).length >= 1);
});
