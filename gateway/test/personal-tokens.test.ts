import t from 'tap';
import aiService from '@asistente/ai';
import analyticsService from '@asistente/analytics';
import authService from '@asistente/auth';
import contactsService from '@asistente/contacts';
import { PersonalTokenBudget, PersonalTokenLookup, type App } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { twoGateways } from './support/services-behind.js';

/**
 * Personal access tokens at the edge. With DATABASE_URL set: two distributed gateways on one database in
 * front of auth, contacts, analytics and ai served as a process of their own would (a revocation made through one must hold
 * at the other at once). Embedded: the one gateway that mounts every service, asked as both.
 */
const TOKEN_MAX = 10;
const platform = await createTestPlatform(t, { nats: true, config: { RATE_LIMIT_TOKEN_MAX: TOKEN_MAX } });
const [first, second] = await twoGateways(t, platform, [authService, contactsService, analyticsService, aiService], { RATE_LIMIT_TOKEN_MAX: TOKEN_MAX });
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
  t.match(limited.json(), { statusCode: 429, code: 'RATE_LIMITED', message: /^Este token de acceso ya hizo sus 10 peticiones de este minuto\. Vuelve a intentarlo en \d+ s\.$/ });
  t.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60, 'Retry-After: the rest of the minute');
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(other.token) })).statusCode, 200, 'another token');
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(session) })).statusCode, 200, 'the session');
});

/** How much of its minute a token has used, as every replica reads it. */
const used = async (tokenId: string) => (await sql<{ used: number }[]>`select used from platform.personal_token_budgets where token_id = ${tokenId}`)[0]?.used;

t.test(`the limit is one count at every gateway: ${TOKEN_MAX + 5} requests at once across both, exactly ${TOKEN_MAX} answered`, async (t) => {
  const session = await register();
  const { id, token } = await createToken(session, ['contacts:read']);
  const answers = await Promise.all(Array.from({ length: TOKEN_MAX + 5 }, (_, i) => (i % 2 ? second : first).inject({ url: '/api/contacts', headers: bearer(token) })));
  const statuses = answers.map((answer) => answer.statusCode).sort();
  t.same(statuses, [...Array<number>(TOKEN_MAX).fill(200), ...Array<number>(5).fill(429)]);
  t.equal(await used(id), TOKEN_MAX, 'refused requests spend nothing');
  const answered = answers.filter((answer) => answer.statusCode === 200).map((answer) => Number(answer.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
  t.same(answered, Array.from({ length: TOKEN_MAX }, (_, i) => i), 'each answer says what was left after it, once each');

  // The minute ends (the window's start moved back: the database's clock decides): the token works again.
  await sql`update platform.personal_token_budgets set window_started_at = now() - interval '61 seconds' where token_id = ${id}`;
  t.equal((await second.inject({ url: '/api/contacts', headers: bearer(token) })).statusCode, 200, 'a new minute');
  t.equal(await used(id), 1);
});

t.test('a token deleted between its lookup and its count is refused as revoked: a 401, not a 500', async (t) => {
  const budget = new PersonalTokenBudget(sql, TOKEN_MAX);
  await t.rejects(budget.spend(crypto.randomUUID()), { statusCode: 401, message: 'El token de acceso no es válido, ha caducado o fue revocado' });
});

t.test('an MCP batch spends one request per call; a batch that does not fit is refused whole and spends only its first', async (t) => {
  const session = await register();
  const { id, token } = await createToken(session, ['contacts:read']);
  const batch = (gateway: App, size: number) =>
    gateway.inject({
      method: 'POST',
      url: '/api/mcp',
      headers: { ...bearer(token), accept: 'application/json, text/event-stream' },
      payload: Array.from({ length: size }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' })),
    });

  const four = await batch(first, 4);
  t.equal(four.statusCode, 200, four.body);
  t.equal(four.json().length, 4, 'four answers');
  t.equal(await used(id), 4, 'four calls, four requests');
  t.equal((await batch(second, 4)).statusCode, 200, 'at the other gateway');
  t.equal(await used(id), 8);

  const over = await batch(first, 4);
  t.equal(over.statusCode, 429);
  t.match(over.json(), {
    code: 'RATE_LIMITED',
    message: /^Este lote de 4 llamadas no cabe en lo que le queda a este token en este minuto \(1 de 10\)\. Vuelve a intentarlo en \d+ s o envía lotes más pequeños\.$/,
  });
  t.ok(Number(over.headers['retry-after']) >= 1 && Number(over.headers['retry-after']) <= 60, 'Retry-After');
  t.equal(await used(id), 9, 'the refused batch spent its first request only');
  t.equal((await second.inject({ url: '/api/contacts', headers: bearer(token) })).statusCode, 200, 'the last request of the minute is still there');
  t.equal((await batch(second, 1)).statusCode, 429, 'then nothing more, batch or not');

  await sql`update platform.personal_token_budgets set window_started_at = now() - interval '61 seconds' where token_id = ${id}`;
  const whole = await batch(first, TOKEN_MAX);
  t.equal(whole.statusCode, 200, 'a new minute takes a batch of the whole limit');
  t.equal(await used(id), TOKEN_MAX);
  await sql`update platform.personal_token_budgets set window_started_at = now() - interval '61 seconds' where token_id = ${id}`;
  const never = await batch(first, TOKEN_MAX + 1);
  t.equal(never.statusCode, 400, 'a batch larger than a whole minute never fits: no 429 to wait for');
  t.match(never.json(), { code: 'BATCH_OVER_TOKEN_LIMIT', message: 'Este lote de 11 llamadas supera el límite del token (10 por minuto): divídelo en lotes más pequeños.' });
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
