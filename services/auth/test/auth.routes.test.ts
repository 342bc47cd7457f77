import { createHmac, randomUUID } from 'node:crypto';
import t from 'tap';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import authService from '../src/app.js';

const platform = await createTestPlatform(t, { config: { RATE_LIMIT_LOGIN_MAX: 3 } });
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;

let n = 0;
const uniqueEmail = () => `persona${++n}.${Date.now()}@ejemplo.es`;
const registration = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Ana',
  lastName: 'López',
  email: uniqueEmail(),
  password: 'secreto1',
  ...overrides,
});
const post = (url: string, payload: unknown, authorization?: string) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: authorization ? { authorization } : {} });
const bearer = (token: string) => `Bearer ${token}`;

t.test('register returns user and token; me and login agree', async (t) => {
  const body = registration({ company: ' Acme SL ', phone: '' });
  const res = await post('/auth/register', body);
  t.equal(res.statusCode, 201);
  const { user, token, workspace } = res.json();
  t.match(user, { firstName: 'Ana', lastName: 'López', email: body.email, company: 'Acme SL', phone: null });
  t.notOk('passwordHash' in user, 'no hash in the response');
  t.type(token, 'string');
  t.same(workspace, { id: user.id, name: 'Acme SL', role: 'owner' }, 'the account founds a workspace named after its company');
  const me = await app.inject({ url: '/auth/me', headers: { authorization: bearer(token) } });
  t.same(me.json(), { user, workspace });
  const login = await post('/auth/login', { email: body.email.toUpperCase(), password: 'secreto1' });
  t.equal(login.statusCode, 200, 'email is case-insensitive');
  t.same(login.json().user, user);
  t.same(login.json().workspace, workspace);
});

t.test('passwords are stored as scrypt hashes', async (t) => {
  const body = registration();
  await post('/auth/register', body);
  const [row] = await sql<{ passwordHash: string }[]>`select password_hash from auth.users where email = ${body.email}`;
  t.match(row!.passwordHash, /^scrypt\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
  t.notMatch(row!.passwordHash, /secreto1/);
});

t.test('register validation uses the spec messages', async (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ firstName: undefined }, 'El nombre es requerido'],
    [{ firstName: '  ' }, 'El nombre es requerido'],
    [{ firstName: 'A' }, 'Mínimo 2 caracteres'],
    [{ lastName: undefined }, 'El apellido es requerido'],
    [{ lastName: 'B' }, 'Mínimo 2 caracteres'],
    [{ email: undefined }, 'El correo es requerido'],
    [{ email: 'ana@' }, 'Correo inválido'],
    [{ password: undefined }, 'La contraseña es requerida'],
    [{ password: '12345' }, 'Mínimo 6 caracteres'],
    [{ role: 'admin' }, 'Campo no permitido: "role"'],
  ];
  for (const [overrides, message] of cases) {
    const payload = JSON.parse(JSON.stringify(registration(overrides)));
    const res = await post('/auth/register', payload);
    t.equal(res.statusCode, 400, message);
    t.equal(res.json().message, message);
  }
  const [count] = await sql<{ n: string }[]>`select count(*) as n from auth.users where first_name in ('A', '  ')`;
  t.equal(Number(count!.n), 0);
});

t.test('a taken email (any case) is a 409 with a Spanish message', async (t) => {
  const body = registration();
  await post('/auth/register', body);
  const again = await post('/auth/register', { ...body, email: body.email.toUpperCase() });
  t.equal(again.statusCode, 409);
  t.match(again.json(), { code: 'EMAIL_TAKEN', message: 'Ya existe una cuenta con ese correo electrónico' });
});

t.test('login validation and wrong credentials', async (t) => {
  const body = registration();
  await post('/auth/register', body);
  const cases: [Record<string, unknown>, number, string][] = [
    [{ password: 'secreto1' }, 400, 'El correo es requerido'],
    [{ email: 'no-valido', password: 'secreto1' }, 400, 'Correo electrónico inválido'],
    [{ email: body.email }, 400, 'La contraseña es requerida'],
    [{ email: body.email, password: '123' }, 400, 'La contraseña debe tener al menos 6 caracteres'],
  ];
  for (const [payload, status, message] of cases) {
    const res = await post('/auth/login', payload);
    t.equal(res.statusCode, status, message);
    t.equal(res.json().message, message);
  }
  const wrong = await post('/auth/login', { email: body.email, password: 'otra-clave' });
  const unknown = await post('/auth/login', { email: uniqueEmail(), password: 'otra-clave' });
  t.equal(wrong.statusCode, 401);
  t.same(wrong.json(), unknown.json(), 'unknown email and wrong password answer the same');
  t.equal(wrong.json().message, 'Correo o contraseña incorrectos');
});

t.test('login is rate-limited per account', async (t) => {
  const body = registration();
  await post('/auth/register', body);
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await post('/auth/login', { email: body.email, password: 'mala-clave' })).statusCode);
  t.same(statuses, [401, 401, 401, 429]);
  const limited = await post('/auth/login', { email: body.email, password: 'secreto1' });
  t.equal(limited.statusCode, 429);
  t.match(limited.json().message, /Demasiados intentos/);
  t.equal((await post('/auth/login', { email: uniqueEmail(), password: 'secreto1' })).statusCode, 401, 'other accounts unaffected');
});

t.test('profile and password changes', async (t) => {
  const body = registration();
  const { token } = (await post('/auth/register', body)).json();
  const authorization = bearer(token);
  const profile = await app.inject({
    method: 'PUT',
    url: '/auth/me',
    headers: { authorization },
    payload: { firstName: 'Ana María', lastName: 'López', company: 'Nueva SL', phone: '+34 600' },
  });
  t.match(profile.json().user, { firstName: 'Ana María', company: 'Nueva SL', phone: '+34 600' });

  const wrong = await app.inject({ method: 'PUT', url: '/auth/password', headers: { authorization }, payload: { currentPassword: 'nope-nope', newPassword: 'nueva-clave' } });
  t.equal(wrong.statusCode, 401);
  t.equal(wrong.json().message, 'La contraseña actual no es correcta');
  const short = await app.inject({ method: 'PUT', url: '/auth/password', headers: { authorization }, payload: { currentPassword: 'secreto1', newPassword: '123' } });
  t.equal(short.json().message, 'Mínimo 6 caracteres');
  const ok = await app.inject({ method: 'PUT', url: '/auth/password', headers: { authorization }, payload: { currentPassword: 'secreto1', newPassword: 'nueva-clave' } });
  t.same(ok.json(), { success: true });
  t.equal((await post('/auth/login', { email: body.email, password: 'nueva-clave' })).statusCode, 200);
});

function forge(header: object, payload: object, secret?: string): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${enc(header)}.${enc(payload)}`;
  const signature = secret ? createHmac('sha256', secret).update(unsigned).digest('base64url') : '';
  return `${unsigned}.${signature}`;
}

t.test('expired, tampered, alg none and revoked tokens are refused', async (t) => {
  const { user, token } = (await post('/auth/register', registration())).json();
  const me = (tok: string) => app.inject({ url: '/auth/me', headers: { authorization: bearer(tok) } });
  t.equal((await me(token)).statusCode, 200);

  const { secret, issuer, audience } = platform.tokens;
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: user.id, jti: randomUUID(), iss: issuer, aud: audience, iat: now - 100 };
  t.equal((await me(forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: now + 600 }, secret))).statusCode, 200, 'a well-formed forge with the secret works (sanity)');
  t.equal((await me(forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: now - 10 }, secret))).statusCode, 401, 'expired');
  t.equal((await me(forge({ alg: 'none', typ: 'JWT' }, { ...claims, exp: now + 600 }))).statusCode, 401, 'alg none');
  t.equal((await me(forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: now + 600 }, 'otro-secreto'))).statusCode, 401, 'wrong key');
  const [h, p, s] = token.split('.');
  const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
  const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: randomUUID() })).toString('base64url')}.${s}`;
  t.equal((await me(tampered)).statusCode, 401, 'tampered payload');
  t.equal((await me(forge({ alg: 'HS256' }, { sub: user.id, iss: issuer, aud: audience, exp: now + 600 }, secret))).statusCode, 401, 'no jti');
  t.equal((await me(forge({ alg: 'HS256' }, { ...claims, aud: 'otra-app', exp: now + 600 }, secret))).statusCode, 401, 'another audience');
  t.equal((await me(forge({ alg: 'HS256' }, { ...claims, iss: 'otro-emisor', exp: now + 600 }, secret))).statusCode, 401, 'another issuer');
  t.equal((await me(forge({ alg: 'HS512' }, { ...claims, exp: now + 600 }, secret))).statusCode, 401, 'another algorithm');
  const header = async (authorization: string) => (await app.inject({ url: '/auth/me', headers: { authorization } })).statusCode;
  t.equal(await header(`bearer ${token}`), 200, 'the scheme in any case');
  t.equal(await header(`Bearer ${token} extra`), 401, 'a header with three parts');
  t.equal(await header(`Token ${token}`), 401, 'another scheme');
  t.equal(await header('Bearer '), 401, 'no token');

  // A verified token's claims are kept in memory: never beyond its own expiry.
  // `exp` is in whole seconds: two ahead of now leaves at least one second in which it is valid.
  const exp = Math.floor(Date.now() / 1000) + 2;
  const shortLived = forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, jti: randomUUID(), exp }, secret);
  t.equal((await me(shortLived)).statusCode, 200, 'valid until its exp');
  for (const deadline = Date.now() + 10_000; (await me(shortLived)).statusCode === 200; ) {
    if (Date.now() > deadline) throw new Error('an expired token kept working');
  }
  t.ok(Date.now() >= exp * 1000, 'refused once expired, not before');

  const logout = await post('/auth/logout', {}, bearer(token));
  t.equal(logout.statusCode, 204);
  const after = await me(token);
  t.equal(after.statusCode, 401, 'revoked');
  t.match(after.json(), { statusCode: 401, code: 'UNAUTHORIZED', error: 'Unauthorized' });
  t.equal((await post('/auth/logout', {}, bearer(token))).statusCode, 401);
});

t.test('registration leaves auth.user.registered in the outbox', async (t) => {
  const { user } = (await post('/auth/register', registration())).json();
  const events = await sql<{ type: string }[]>`select type from auth.outbox where user_id = ${user.id}`;
  t.same(events.map((e) => e.type), ['auth.user.registered']);
});
