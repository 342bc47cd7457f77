import { randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import t from 'tap';
import { buildServicesApp, createTestPlatform } from '@asistente/kit/testing';
import analyticsService from '@asistente/analytics';
import contactsService from '@asistente/contacts';
import authService from '@asistente/auth';

const platform = await createTestPlatform(t, { config: { RATE_LIMIT_LOGIN_MAX: 3 } });
const app = await buildServicesApp(t, [authService, contactsService, analyticsService], platform);
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const SHAPE = { statusCode: Number, code: String, error: String, message: String };

let n = 0;
const uniqueEmail = () => `sesion${++n}.${Date.now()}@ejemplo.es`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function register(password = 'clave-larga-1'): Promise<{ email: string; password: string; token: string; userId: string }> {
  const email = uniqueEmail();
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password } });
  t.equal(res.statusCode, 201, 'registered');
  const { token, user } = res.json<{ token: string; user: { id: string } }>();
  return { email, password, token, userId: user.id };
}
const login = (email: string, password: string, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress, headers });
const me = (token: string) => app.inject({ url: '/api/auth/me', headers: bearer(token) });
const contacts = (token: string) => app.inject({ url: '/api/contacts?limit=5', headers: bearer(token) });
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, number>;

t.test('a login token lives the configured lifetime (7 days by default), not 7,000', async (t) => {
  const { email, password } = await register();
  const { token } = (await login(email, password)).json<{ token: string }>();
  const { iat, exp } = claims(token);
  t.equal(exp! - iat!, platform.config.JWT_TTL_SECONDS);
  t.equal(platform.config.JWT_TTL_SECONDS, 604_800);
});

t.test('a token signed with a longer lifetime than configured (the old 7,000-day ones) is refused', async (t) => {
  const { userId } = await register();
  const sign = createSigner({ key: platform.tokens.secret, iss: platform.tokens.issuer, aud: platform.tokens.audience, expiresIn: 604_800_000_000 });
  const res = await contacts(sign({ sub: userId, jti: randomUUID() }));
  t.equal(res.statusCode, 401);
});

t.test('changing the password ends every other session, keeps the one that changed it', async (t) => {
  const { email, password, token: first } = await register();
  const second = (await login(email, password)).json<{ token: string }>().token;
  const third = (await login(email, password)).json<{ token: string }>().token;
  const change = await app.inject({
    method: 'PUT',
    url: '/api/auth/password',
    headers: bearer(second),
    payload: { currentPassword: password, newPassword: 'otra-clave-larga-2' },
  });
  t.equal(change.statusCode, 200);
  for (const [name, token] of [['first', first], ['third', third]] as const) {
    t.equal((await me(token)).statusCode, 401, `${name} session: /auth/me`);
    t.equal((await contacts(token)).statusCode, 401, `${name} session: another service`);
  }
  t.equal((await me(second)).statusCode, 200, 'the session that changed it stays');
  const fresh = await login(email, 'otra-clave-larga-2');
  t.equal(fresh.statusCode, 200);
  t.equal((await contacts(fresh.json<{ token: string }>().token)).statusCode, 200, 'a new login right after works');
});

t.test('tokens of users that do not exist, or whose sub is not a uuid, are refused everywhere', async (t) => {
  const ghost = app.jwt.sign({ sub: randomUUID(), jti: randomUUID() });
  t.equal((await contacts(ghost)).statusCode, 401, 'contacts');
  t.equal((await app.inject({ url: '/api/analytics/recent', headers: bearer(ghost) })).statusCode, 401, 'analytics');
  t.equal((await me(ghost)).statusCode, 401, 'auth');
  const notUuid = app.jwt.sign({ sub: 'admin', jti: randomUUID() });
  const res = await contacts(notUuid);
  t.equal(res.statusCode, 401);
  t.match(res.json(), { ...SHAPE, code: 'UNAUTHORIZED', message: 'Sesión inválida o expirada' });
});

/** Reads an SSE response until it ends; resolves with everything it sent. */
async function readToEnd(body: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += decoder.decode(chunk as Uint8Array, { stream: true });
  return text;
}

async function openStream(token: string): Promise<{ ended: Promise<string>; abort: () => void }> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/analytics/stream`, { headers: bearer(token), signal: controller.signal });
  t.equal(res.status, 200, 'stream open');
  // An aborted read (teardown) is not a result.
  return { ended: readToEnd(res.body!).catch(() => ''), abort: () => controller.abort() };
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return true;
}

t.test('logout closes the open live streams of that session, not the others', async (t) => {
  const { email, password, token } = await register();
  const other = (await login(email, password)).json<{ token: string }>().token;
  const mine = await openStream(token);
  const theirs = await openStream(other);
  t.teardown(() => theirs.abort());
  t.ok(await waitFor(() => platform.streams.size >= 2), 'both streams registered');
  const before = platform.streams.size;
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })).statusCode, 204);
  t.match(await mine.ended, /event: session-ended/, 'the stream ends, telling why');
  t.equal(platform.streams.size, before - 1, 'the other session keeps its stream');
});

t.test('a password change closes the streams of the sessions it ends', async (t) => {
  const { email, password, token } = await register();
  const other = (await login(email, password)).json<{ token: string }>().token;
  const stream = await openStream(other);
  await app.inject({ method: 'PUT', url: '/api/auth/password', headers: bearer(token), payload: { currentPassword: password, newPassword: 'clave-nueva-99' } });
  t.match(await stream.ended, /event: session-ended/);
});

t.test('login attempts are limited per account whatever address the client claims or uses', async (t) => {
  const { email, password } = await register();
  for (let i = 0; i < 3; i++) {
    const res = await login(email, 'incorrecta', `198.51.100.${i + 1}`, { 'x-forwarded-for': `203.0.113.${i + 1}` });
    t.equal(res.statusCode, 401, `attempt ${i + 1}`);
  }
  const blocked = await login(email, 'incorrecta', '198.51.100.50', { 'x-forwarded-for': '203.0.113.77' });
  t.equal(blocked.statusCode, 429, 'a new address and a forged header buy no more guesses');
  t.match(blocked.json(), { ...SHAPE, code: 'RATE_LIMITED' });
  t.equal((await login(email, password, '198.51.100.51')).statusCode, 429, 'not even with the right password, until the window passes');
});
