import type { AddressInfo } from 'node:net';
import t from 'tap';
import analyticsService from '@asistente/analytics';
import authService from '@asistente/auth';
import contactsService from '@asistente/contacts';
import { authPlugin, createHttpApp, PersonalTokenLookup, type App } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { ROUTES } from '../src/routing-table.js';

/**
 * Personal access tokens at the edge. With DATABASE_URL set: two distributed gateways on one database in
 * front of auth, contacts and analytics served as a process of their own would (a revocation made through one must hold
 * at the other at once). Embedded: the one gateway that mounts every service, asked as both.
 */
const TOKEN_MAX = 10;
const distributed = Boolean(process.env.DATABASE_URL);
const platform = await createTestPlatform(t, { nats: true, config: { RATE_LIMIT_TOKEN_MAX: TOKEN_MAX } });

async function servicesBehind(): Promise<string> {
  const services = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES, streams: platform.streams });
  await services.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  await services.register(authService, { platform });
  await services.register(contactsService, { platform });
  await services.register(analyticsService, { platform });
  await services.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => services.close());
  return `http://127.0.0.1:${(services.server.address() as AddressInfo).port}`;
}

async function gateways(): Promise<[App, App]> {
  if (!distributed) {
    const gateway = await buildGateway(platform, 'embedded');
    await gateway.ready();
    t.teardown(() => gateway.close());
    return [gateway, gateway];
  }
  const url = await servicesBehind();
  const edge = async () => {
    const own = await createTestPlatform(t, {
      config: {
        ...Object.fromEntries(ROUTES.map((r) => [r.urlVariable, url])),
        DATABASE_URL: platform.config.DATABASE_URL,
        JWT_SECRET: platform.tokens.secret,
        RATE_LIMIT_TOKEN_MAX: TOKEN_MAX,
      },
    });
    const gateway = await buildGateway(own, 'distributed');
    await gateway.ready();
    t.teardown(() => gateway.close());
    return gateway;
  };
  return [await edge(), await edge()];
}

const [first, second] = await gateways();
const sql = platform.db.sql;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let n = 0;

async function register(): Promise<string> {
  const email = `pat${++n}.${Date.now()}@ejemplo.es`;
  const res = await first.inject({ method: 'POST', url: '/api/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });
  t.equal(res.statusCode, 201, 'registered');
  return res.json<{ token: string }>().token;
}

async function createToken(session: string, scopes: string[]): Promise<{ id: string; token: string }> {
  const res = await first.inject({ method: 'POST', url: '/api/auth/tokens', headers: bearer(session), payload: { name: `Script ${++n}`, scopes } });
  t.equal(res.statusCode, 201, 'token created');
  return res.json();
}

t.test('a token with contacts:read reads contacts, and nothing else', async (t) => {
  const session = await register();
  const made = await first.inject({ method: 'POST', url: '/api/contacts', headers: bearer(session), payload: { firstName: 'Lucía', lastName: 'Gómez' } });
  t.equal(made.statusCode, 201);
  const { token } = await createToken(session, ['contacts:read']);

  const read = await first.inject({ url: '/api/contacts?search=lucia', headers: bearer(token) });
  t.equal(read.statusCode, 200);
  t.equal(read.json().total, 1, "the owner's contacts");
  t.equal((await second.inject({ url: `/api/contacts/${made.json().id}`, headers: bearer(token) })).statusCode, 200, 'at either gateway');

  const write = await first.inject({ method: 'POST', url: '/api/contacts', headers: bearer(token), payload: { firstName: 'Otro', lastName: 'Más' } });
  t.equal(write.statusCode, 403);
  t.same(write.json(), { statusCode: 403, code: 'TOKEN_SCOPE', error: 'Forbidden', message: 'Este token no tiene permiso para esta operación' });
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(session) })).json().total, 1, 'nothing was written');
  t.equal((await first.inject({ url: '/api/analytics/recent', headers: bearer(token) })).statusCode, 403, 'another area');
});

t.test('the account routes are never reached, whatever the scopes', async (t) => {
  const session = await register();
  const { token } = await createToken(session, ['contacts:read', 'contacts:write', 'whatsapp:read', 'whatsapp:send', 'emails:read', 'emails:send', 'calendar:read', 'calendar:write', 'teams:read', 'analytics:read']);
  const routes: [string, string, object?][] = [
    ['GET', '/api/auth/tokens'],
    ['POST', '/api/auth/tokens', { name: 'Otro', scopes: ['contacts:read'] }],
    ['GET', '/api/auth/me'],
    ['PUT', '/api/auth/password', { currentPassword: 'secreto1', newPassword: 'otra-clave-9' }],
    ['GET', '/api/account/activity'],
    ['POST', '/api/account/export'],
    ['DELETE', '/api/account'],
    ['POST', '/api/emails/integrations', { provider: 'imap' }],
    ['PUT', '/api/ai/assistant', {}],
  ];
  for (const [method, url, payload] of routes) {
    const res = await first.inject({ method: method as 'GET', url, headers: bearer(token), ...(payload ? { payload } : {}) });
    t.equal(res.statusCode, 403, `${method} ${url}`);
    t.equal(res.json().message, 'Este token no tiene permiso para esta operación');
  }
  const tokens = await first.inject({ url: '/api/auth/tokens', headers: bearer(session) });
  t.equal(tokens.json().data.length, 1, 'no token was made with a token');
});

t.test('a revoked token is refused at once at every gateway; an unknown one too', async (t) => {
  const session = await register();
  const { id, token } = await createToken(session, ['contacts:read']);
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(token) })).statusCode, 200);
  t.equal((await second.inject({ url: '/api/contacts', headers: bearer(token) })).statusCode, 200);
  t.equal((await second.inject({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers: bearer(session) })).statusCode, 204);
  for (const [name, gateway] of [['first', first], ['second', second]] as const) {
    const res = await gateway.inject({ url: '/api/contacts', headers: bearer(token) });
    t.equal(res.statusCode, 401, `${name} gateway`);
    t.same(res.json(), { statusCode: 401, code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'El token de acceso no es válido, ha caducado o fue revocado' });
  }
  const unknown = `asis_pat_${'A'.repeat(43)}`;
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(unknown) })).statusCode, 401, 'unknown');
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer('asis_pat_corto') })).statusCode, 401, 'malformed');
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(session) })).statusCode, 200, 'the session still works');
});

t.test('an expired token is refused', async (t) => {
  const session = await register();
  const { id, token } = await createToken(session, ['contacts:read']);
  // Made to have expired already (no route changes an expiry): refused at both gateways.
  await sql`update platform.personal_tokens set expires_at = now() - interval '1 second' where id = ${id}`;
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(token) })).statusCode, 401);
  t.equal((await second.inject({ url: '/api/contacts', headers: bearer(token) })).statusCode, 401);

  // One that worked stops on the day it expires, whatever the lookup kept meanwhile (embedded keeps it).
  const res = await first.inject({ method: 'POST', url: '/api/auth/tokens', headers: bearer(session), payload: { name: 'Mes', scopes: ['contacts:read'], expiresInDays: 30 } });
  const monthly = res.json<{ token: string; expiresAt: string }>();
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(monthly.token) })).statusCode, 200);
  const lookup = PersonalTokenLookup.for(platform.db, platform.revocations);
  t.ok(await lookup.find(monthly.token), 'valid now');
  t.notOk(await lookup.find(monthly.token, Date.parse(monthly.expiresAt)), 'not from its expiry on');
});

t.test('the last use is written once a minute at most, not on every request', async (t) => {
  const session = await register();
  const { id, token } = await createToken(session, ['contacts:read']);
  const lastUsed = async () => (await sql<{ lastUsedAt: Date | null }[]>`select last_used_at from platform.personal_tokens where id = ${id}`)[0]!.lastUsedAt;
  t.equal(await lastUsed(), null, 'never used');
  await first.inject({ url: '/api/contacts', headers: bearer(token) });
  const once = await lastUsed();
  t.ok(once, 'written on first use');
  await first.inject({ url: '/api/contacts', headers: bearer(token) });
  await second.inject({ url: '/api/contacts', headers: bearer(token) });
  t.same(await lastUsed(), once, 'not written again within the minute, at either gateway');
  const listed = (await first.inject({ url: '/api/auth/tokens', headers: bearer(session) })).json().data[0];
  t.equal(listed.lastUsedAt, once!.toISOString(), 'the owner sees it');
});

t.test(`a token makes at most ${TOKEN_MAX} requests a minute; another token is not held back`, async (t) => {
  const session = await register();
  const { token } = await createToken(session, ['contacts:read']);
  const other = await createToken(session, ['contacts:read']);
  for (let i = 0; i < TOKEN_MAX; i++) t.equal((await first.inject({ url: '/api/contacts', headers: bearer(token) })).statusCode, 200, `request ${i + 1}`);
  const limited = await first.inject({ url: '/api/contacts', headers: bearer(token) });
  t.equal(limited.statusCode, 429);
  t.match(limited.json(), { statusCode: 429, code: 'RATE_LIMITED', message: 'Demasiados intentos. Espera un momento y vuelve a intentarlo' });
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(other.token) })).statusCode, 200, 'another token');
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(session) })).statusCode, 200, 'the session');
});

t.test('revoking a token ends the live streams opened with it, and only those', async (t) => {
  const session = await register();
  const { id, token } = await createToken(session, ['analytics:read']);
  const before = platform.streams.size;
  const revokedStream = second.inject({ url: '/api/analytics/stream', headers: bearer(token) });
  const sessionStream = first.inject({ url: '/api/analytics/stream', headers: bearer(session) });
  for (let i = 0; platform.streams.size < before + 2; i++) {
    if (i > 500) throw new Error('the streams never opened');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  t.equal((await first.inject({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers: bearer(session) })).statusCode, 204);
  const ended = await revokedStream;
  t.equal(ended.statusCode, 200);
  t.match(ended.body, /event: session-ended/, "the token's stream ended");
  t.equal(platform.streams.size, before + 1, "the session's stream stays open");
  // The session's own stream ends with its logout, as before.
  await first.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(session) });
  t.match((await sessionStream).body, /event: session-ended/);
});
