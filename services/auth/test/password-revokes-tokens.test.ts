// Proves a password change or a reset by mail revokes every personal token of the account (the log says how many), and that a session it ended cannot make a new one.
import t from 'tap';
import { issuePasswordResetLink, PersonalTokenLookup } from '@asistente/kit';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import authService from '../src/app.js';
import { PersonalTokensRepository } from '../src/domain/personal-tokens.repository.js';
import { PersonalTokensService } from '../src/domain/personal-tokens.service.js';
import { logged } from './support/security-log.js';

const platform = await createTestPlatform(t, { nats: true });
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;
/** The gateway's read of personal tokens (embedded, it keeps the ones it found until told otherwise). */
const lookup = PersonalTokenLookup.for(platform.db, platform.revocations);
const client = { ip: '192.0.2.1', userAgent: null };

let n = 0;
async function registered() {
  const email = `recupera${++n}.${Date.now()}@ejemplo.es`;
  const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Rosa', lastName: 'Vidal', email, password: 'secreto1' } });
  return { email, userId: res.json().user.id as string, authorization: `Bearer ${res.json().token as string}` };
}

const me = (authorization: string) => app.inject({ url: '/auth/me', headers: { authorization } });
const countTokens = async (userId: string) => (await sql<{ n: number }[]>`select count(*)::int as n from platform.personal_tokens where user_id = ${userId}`)[0]!.n;

async function createToken(authorization: string, name: string): Promise<{ id: string; token: string }> {
  const res = await app.inject({ method: 'POST', url: '/auth/tokens', headers: { authorization }, payload: { name, scopes: ['contacts:read'] } });
  if (res.statusCode !== 201) throw new Error(`token not created: ${res.statusCode}`);
  return res.json();
}

/** Two working tokens and one expired, each found by the lookup once (so embedded keeps them). */
async function threeTokens(authorization: string): Promise<string[]> {
  const made = [await createToken(authorization, 'Zapier'), await createToken(authorization, 'n8n'), await createToken(authorization, 'Viejo')];
  await sql`update platform.personal_tokens set expires_at = now() - interval '1 day' where id = ${made[2]!.id}`;
  for (const { token } of made.slice(0, 2)) if (!(await lookup.find(token))) throw new Error('a fresh token was not found');
  return made.map((m) => m.token);
}

t.test('a password change leaves no personal token working, and the log says how many it revoked', async (t) => {
  const owner = await registered();
  const other = `Bearer ${(await app.inject({ method: 'POST', url: '/auth/login', payload: { email: owner.email, password: 'secreto1' } })).json().token as string}`;
  const tokens = await threeTokens(owner.authorization);
  const res = await app.inject({ method: 'PUT', url: '/auth/password', headers: { authorization: owner.authorization }, payload: { currentPassword: 'secreto1', newPassword: 'Nueva-Clave-7' } });
  t.same(res.json(), { success: true });
  t.equal(await countTokens(owner.userId), 0, 'every token row is gone');
  for (const [i, token] of tokens.entries()) t.equal(await lookup.find(token), undefined, `token ${i + 1} finds no grant`);
  t.same((await logged(sql, owner.userId, 'password.changed')).detail, { revokedTokens: 2 }, 'the two that still worked (the expired one was dead already)');
  t.equal((await me(owner.authorization)).statusCode, 200, 'the session that changed it stays');
  t.equal((await me(other)).statusCode, 401, 'another session ends');

  const fresh = await createToken(owner.authorization, 'Nuevo');
  t.ok(await lookup.find(fresh.token), 'a token made afterwards works');
});

t.test('a wrong current password revokes nothing', async (t) => {
  const owner = await registered();
  const [token] = await threeTokens(owner.authorization);
  const res = await app.inject({ method: 'PUT', url: '/auth/password', headers: { authorization: owner.authorization }, payload: { currentPassword: 'equivocada', newPassword: 'Nueva-Clave-7' } });
  t.equal(res.statusCode, 401);
  t.equal(await countTokens(owner.userId), 3);
  t.ok(await lookup.find(token!), 'still works');
});

t.test('a reset by mail leaves no personal token working either', async (t) => {
  const owner = await registered();
  const tokens = await threeTokens(owner.authorization);
  const link = new URL((await issuePasswordResetLink(sql, owner.userId, platform.config.PUBLIC_URL)).url);
  const res = await app.inject({ method: 'POST', url: '/auth/password/reset', payload: { token: link.searchParams.get('token'), newPassword: 'Recuperada-8' } });
  t.same(res.json(), { success: true });
  t.equal(await countTokens(owner.userId), 0);
  for (const [i, token] of tokens.entries()) t.equal(await lookup.find(token), undefined, `token ${i + 1} finds no grant`);
  t.same((await logged(sql, owner.userId, 'password.reset')).detail, { revokedTokens: 2 });
  t.equal((await me(owner.authorization)).statusCode, 401, 'no session is kept by a reset');
});

t.test('a session the change ended cannot make a token, even one already past its token check', async (t) => {
  const owner = await registered();
  const login = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: owner.email, password: 'secreto1' } })).json();
  const claims = app.jwt.decode<{ jti: string; ims: number }>(login.token as string)!;
  await app.inject({ method: 'PUT', url: '/auth/password', headers: { authorization: owner.authorization }, payload: { currentPassword: 'secreto1', newPassword: 'Nueva-Clave-7' } });
  // What a creation that authenticated before the change meets once it holds the user's row.
  const tokens = new PersonalTokensService({ sql, tokens: new PersonalTokensRepository(sql), outbox: platform.outbox('auth'), revocations: platform.revocations });
  await t.rejects(tokens.create({ id: owner.userId, workspaceId: owner.userId, role: 'owner' }, { jti: claims.jti, issuedAtMs: claims.ims }, { name: 'Tarde', scopes: ['contacts:read'] }, client), { code: 'UNAUTHORIZED' }, 'refused: its session ended');
  t.equal(await countTokens(owner.userId), 0, 'nothing was made');
});
