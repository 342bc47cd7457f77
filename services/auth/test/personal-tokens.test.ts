import t from 'tap';
import { PERSONAL_TOKENS_PER_USER } from '@asistente/contracts';
import { hashPersonalToken } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import authService from '../src/app.js';
import { logged } from './support/security-log.js';

const platform = await createTestPlatform(t, { nats: true });
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;
let n = 0;

async function register() {
  const email = `tokens${++n}.${Date.now()}@ejemplo.es`;
  const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });
  const { user, token } = res.json();
  return { userId: user.id as string, authorization: `Bearer ${token}` };
}

const create = (authorization: string, payload: unknown) => app.inject({ method: 'POST', url: '/auth/tokens', headers: { authorization }, payload: payload as object });
const list = (authorization: string) => app.inject({ url: '/auth/tokens', headers: { authorization } });
const revoke = (authorization: string, id: string) => app.inject({ method: 'DELETE', url: `/auth/tokens/${id}`, headers: { authorization } });
const countTokens = async (userId: string) => Number((await sql<{ n: string }[]>`select count(*) as n from platform.personal_tokens where user_id = ${userId}`)[0]!.n);

t.test('a token is created once with its secret, listed without it, and revoked', async (t) => {
  const owner = await register();
  const before = Date.now();
  const res = await create(owner.authorization, { name: '  Zapier  ', scopes: ['contacts:read', 'calendar:write'], expiresInDays: 30 });
  t.equal(res.statusCode, 201);
  t.equal(res.headers['cache-control'], 'no-store');
  const created = res.json();
  t.match(created.token, /^asis_pat_[A-Za-z0-9_-]{43}$/);
  t.same(created.scopes, ['contacts:read', 'calendar:write']);
  t.equal(created.name, 'Zapier');
  const expires = Date.parse(created.expiresAt);
  t.ok(expires >= before + 30 * 86_400_000 && expires <= Date.now() + 30 * 86_400_000, 'expires in 30 days');

  const forever = (await create(owner.authorization, { name: 'Script', scopes: ['analytics:read'] })).json();
  t.equal(forever.expiresAt, null, 'no expiry unless asked');
  t.equal((await create(owner.authorization, { name: 'Nulo', scopes: ['teams:read'], expiresInDays: null })).json().expiresAt, null);

  const listed = (await list(owner.authorization)).json().data;
  t.same(listed.map((r: { name: string }) => r.name), ['Nulo', 'Script', 'Zapier'], 'newest first');
  const zapier = listed[2];
  t.same(Object.keys(zapier).sort(), ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'scopes']);
  t.equal(zapier.prefix, created.token.slice(0, 15));
  t.equal(zapier.lastUsedAt, null);
  t.notOk(JSON.stringify(listed).includes(created.token.slice(15)), 'no secret in the list');

  // Only the hash is stored: the token's text is in no column of any table.
  const [stored] = await sql<{ tokenHash: string }[]>`select token_hash from platform.personal_tokens where id = ${created.id}`;
  t.equal(stored!.tokenHash, hashPersonalToken(created.token));
  const secret = created.token.slice(15);
  const tables = await sql<{ schema: string; name: string }[]>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`;
  for (const { schema, name } of tables) {
    const [hit] = await sql.unsafe(`select 1 from "${schema}"."${name}" as r where r::text like '%' || $1 || '%' limit 1`, [secret]);
    t.notOk(hit, `no plaintext token in ${schema}.${name}`);
  }

  t.equal((await revoke(owner.authorization, created.id)).statusCode, 204);
  t.equal(await countTokens(owner.userId), 2);
  t.equal((await revoke(owner.authorization, created.id)).statusCode, 404, 'revoked once');
  t.match((await logged(sql, owner.userId, 'token.created')).detail, { tokenName: 'Zapier' });
  t.same((await logged(sql, owner.userId, 'token.revoked')).detail, { tokenName: 'Zapier' });
});

t.test("another user's token answers 404 and stays", async (t) => {
  const owner = await register();
  const stranger = await register();
  const { id } = (await create(owner.authorization, { name: 'Mío', scopes: ['contacts:read'] })).json();
  const res = await revoke(stranger.authorization, id);
  t.equal(res.statusCode, 404);
  t.equal(res.json().message, 'Token no encontrado');
  t.same((await list(stranger.authorization)).json().data, []);
  t.equal(await countTokens(owner.userId), 1);
  t.equal((await revoke(owner.authorization, 'no-es-un-id')).statusCode, 400);
});

t.test('bad input answers 400 in Spanish and writes nothing', async (t) => {
  const owner = await register();
  const cases: [unknown, string][] = [
    [{ scopes: ['contacts:read'] }, 'El nombre del token es requerido'],
    [{ name: '   ', scopes: ['contacts:read'] }, 'El nombre del token es requerido'],
    [{ name: 'x'.repeat(101), scopes: ['contacts:read'] }, 'El nombre del token admite como máximo 100 caracteres'],
    [{ name: 'Sin permisos', scopes: [] }, 'Elige al menos un permiso'],
    [{ name: 'Sin permisos' }, 'Elige al menos un permiso'],
    [{ name: 'Permiso raro', scopes: ['contacts:delete'] }, 'Permiso no válido'],
    [{ name: 'Repetido', scopes: ['contacts:read', 'contacts:read'] }, 'Hay permisos repetidos'],
    [{ name: 'Caducidad', scopes: ['contacts:read'], expiresInDays: 7 }, 'La caducidad debe ser de 30, 90 o 365 días, o ninguna'],
    [{ name: 'Extra', scopes: ['contacts:read'], admin: true }, 'Campo no permitido: "admin"'],
  ];
  for (const [payload, message] of cases) {
    const res = await create(owner.authorization, payload);
    t.equal(res.statusCode, 400, JSON.stringify(payload));
    t.match(res.json().message, message);
  }
  t.equal(await countTokens(owner.userId), 0);
});

t.test('a personal token never reaches the account routes, even sent to auth directly', async (t) => {
  const { authorization } = signToken(app, undefined, ['contacts:read', 'contacts:write']);
  for (const [method, url] of [['GET', '/auth/tokens'], ['POST', '/auth/tokens'], ['GET', '/auth/me'], ['GET', '/account/activity']] as const) {
    const res = await app.inject({ method, url, headers: { authorization }, payload: method === 'POST' ? { name: 'x', scopes: ['contacts:read'] } : undefined });
    t.equal(res.statusCode, 403, `${method} ${url}`);
    t.match(res.json(), { code: 'TOKEN_SCOPE', message: 'Este token no tiene permiso para esta operación' });
  }
});

t.test(`a user holds at most ${PERSONAL_TOKENS_PER_USER} tokens`, async (t) => {
  const owner = await register();
  await sql`
    insert into platform.personal_tokens (id, user_id, workspace_id, role, name, scopes, token_hash, prefix)
    select gen_random_uuid(), ${owner.userId}, ${owner.userId}, 'owner', 'lleno ' || i, '{contacts:read}', md5(${owner.userId} || i), 'asis_pat_x'
    from generate_series(1, ${PERSONAL_TOKENS_PER_USER}) as i`;
  const res = await create(owner.authorization, { name: 'Uno más', scopes: ['contacts:read'] });
  t.equal(res.statusCode, 409);
  t.match(res.json().message, /revoca alguno/);
  t.equal(await countTokens(owner.userId), PERSONAL_TOKENS_PER_USER);
});
