import { createHash, randomUUID } from 'node:crypto';
import t from 'tap';
import { OAuthFlows, redactUrl } from '../src/index.js';
import { createTestPlatform, oauthCookie } from '../src/testing/index.js';

const platform = await createTestPlatform(t);
const sql = platform.db.sql;
const secret = 'k'.repeat(32);
const flows = new OAuthFlows(secret, sql, 'calendar');
const flow = flows.flow('google', 'https://asistente.example/base/api/google/callback');

t.test('start: a path-scoped HttpOnly cookie, a state bound to it, an S256 challenge of 43 characters', async (t) => {
  const start = flow.start(randomUUID());
  t.match(start.cookie, /^asistente_oauth=[A-Za-z0-9_-]{43}; Path=\/base\/api\/google\/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
  t.match(start.codeChallenge, /^[A-Za-z0-9_-]{43}$/);
  const plain = flows.flow('microsoft', 'http://localhost:3000/api/teams/callback').start(randomUUID());
  t.notMatch(plain.cookie, /Secure/, 'no Secure while PUBLIC_URL is http');
  t.match(flow.clearCookie, /^asistente_oauth=; Path=\/base\/api\/google\/callback; Max-Age=0; HttpOnly; SameSite=Lax; Secure$/);
});

t.test('finish: only the starting browser, once, with the verifier of the challenge', async (t) => {
  const userId = randomUUID();
  const start = flow.start(userId);
  const cookie = oauthCookie(start.cookie);
  t.same(await flow.finish(start.state, undefined), { ok: false, reason: 'browser' }, 'no cookie');
  t.same(await flow.finish(start.state, oauthCookie(flow.start(userId).cookie)), { ok: false, reason: 'browser' }, 'the cookie of another start');
  t.same(await flow.finish(`${start.state}x`, cookie), { ok: false, reason: 'invalid' }, 'tampered');
  t.same(await flows.flow('gmail', 'https://asistente.example/api/emails/integrations/gmail/callback').finish(start.state, cookie), { ok: false, reason: 'invalid' }, 'another flow');
  const done = await flow.finish(start.state, `otra=1; ${cookie}; y=2`);
  t.ok(done.ok, 'the browser that started it, among other cookies');
  if (done.ok) {
    t.equal(done.userId, userId);
    t.equal(createHash('sha256').update(done.codeVerifier).digest('base64url'), start.codeChallenge, 'the verifier of the challenge');
  }
  const replica = new OAuthFlows(secret, sql, 'calendar').flow('google', 'https://asistente.example/base/api/google/callback');
  t.same(await replica.finish(start.state, cookie), { ok: false, reason: 'replayed' }, 'spent for every replica');
  t.same(await flow.finish(start.state, cookie), { ok: false, reason: 'replayed' }, 'and for this one');
});

t.test('used states are swept once long expired', async (t) => {
  await sql`insert into calendar.oauth_states_used (id, expires_at) values ('viejo', now() - interval '1 minute')`;
  const start = flow.start(randomUUID());
  t.ok((await flow.finish(start.state, oauthCookie(start.cookie))).ok);
  t.same(await sql`select id from calendar.oauth_states_used where id = 'viejo'`, [], 'swept on the next use');
});

t.test('a logged URL keeps its route and harmless parameters, not its secrets', async (t) => {
  t.equal(
    redactUrl('/api/google/callback?state=abc.def&code=4%2Fxyz&scope=email&Access_Token=t&id_token=i'),
    '/api/google/callback?state=[redactado]&code=[redactado]&scope=email&Access_Token=[redactado]&id_token=[redactado]',
  );
  t.equal(redactUrl('/api/auth/reset?token=t&key=k&password=p&refresh_token=r&page=2'), '/api/auth/reset?token=[redactado]&key=[redactado]&password=[redactado]&refresh_token=[redactado]&page=2');
  t.equal(redactUrl('/api/emails/track/open/5e1d/AbC-mac_1'), '/api/emails/track/open/5e1d/[redactado]');
  t.equal(redactUrl('/emails/track/click/5e1d/AbC?u=https%3A%2F%2Fejemplo.es'), '/emails/track/click/5e1d/[redactado]?u=https%3A%2F%2Fejemplo.es');
  t.equal(redactUrl('/api/contacts?search=code'), '/api/contacts?search=code', 'a value that merely says "code" stays');
  t.equal(redactUrl('/api/x?%63ode=secreto'), '/api/x?%63ode=[redactado]', 'an encoded name is still the name');
});
