import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { OAuthClient, OAuthFlows, postTokenRequest, revokeAtEndpoint, renewGrant, type OAuthStrategy } from '../src/index.js';
import { createTestPlatform, oauthCookie } from '../src/testing/index.js';

// The kit's OAuth sequence against a tiny local provider: an authorization server that remembers each
// consent's PKCE challenge, a token endpoint that checks the verifier and rotates refresh tokens every
// other refresh, and an RFC 7009 revocation endpoint.

interface Tokens {
  accessToken: string;
  refreshToken: string | null;
}

const challenges = new Map<string, string>();
const revoked: string[] = [];
const grants: Record<string, string>[] = [];
let refreshes = 0;

const readForm = async (request: IncomingMessage) => {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return Object.fromEntries(new URLSearchParams(body));
};

const provider = createServer((request, response) => {
  void (async () => {
    const answer = (status: number, json: object) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    const form = await readForm(request);
    if (request.url === '/revoke') {
      revoked.push(form.token ?? '');
      response.writeHead(form.token === 'desconocido' ? 400 : form.token === 'roto' ? 503 : 200).end();
      return;
    }
    grants.push(form);
    if (form.grant_type === 'authorization_code') {
      const challenge = challenges.get(form.code ?? '');
      const verifier = form.code_verifier ?? '';
      if (!challenge || createHash('sha256').update(verifier).digest('base64url') !== challenge) return answer(400, { error: 'invalid_grant' });
      challenges.delete(form.code ?? '');
      return answer(200, { access_token: 'acceso-1', refresh_token: 'renovar-1', expires_in: 3600 });
    }
    if (form.grant_type === 'refresh_token') {
      refreshes += 1;
      // Odd refreshes rotate the refresh token, even ones send none (the old one stays valid).
      return answer(200, { access_token: `acceso-r${refreshes}`, ...(refreshes % 2 === 1 ? { refresh_token: `renovar-r${refreshes}` } : {}), expires_in: 3600 });
    }
    return answer(400, { error: 'unsupported_grant_type' });
  })();
});
await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise<void>((resolve) => provider.close(() => resolve())));
const base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;

/** A provider description as a service's adapter writes one: its endpoints, its parameters, its answers read. */
const strategy = (revocable: boolean): OAuthStrategy<Tokens> => {
  const tokens = async (grant: Record<string, string>): Promise<Tokens> => {
    const { ok, body } = await postTokenRequest(`${base}/token`, { ...grant, client_id: 'asistente' });
    if (!ok || typeof body.access_token !== 'string') throw new Error(`token endpoint refused: ${String(body.error)}`);
    return { accessToken: body.access_token, refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null };
  };
  return {
    authorizationUrl: (state, codeChallenge) => `${base}/authorize?${new URLSearchParams({ state, code_challenge: codeChallenge, code_challenge_method: 'S256' }).toString()}`,
    exchange: (code, codeVerifier) => tokens({ grant_type: 'authorization_code', code, code_verifier: codeVerifier }),
    refresh: (refreshToken) => tokens({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    revoke: revocable ? (token) => revokeAtEndpoint(`${base}/revoke`, token) : undefined,
  };
};

/** The provider's consent screen: it keeps the challenge for the code it hands back with the state. */
const consent = (url: string) => {
  const query = new URL(url).searchParams;
  const code = randomUUID();
  challenges.set(code, query.get('code_challenge') ?? '');
  return { code, state: query.get('state') ?? undefined };
};

const platform = await createTestPlatform(t);
const flows = new OAuthFlows('s'.repeat(32), platform.db.sql, 'calendar');
const client = new OAuthClient(flows.flow('prueba', 'http://localhost:3000/api/prueba/callback'), strategy(true));

t.test('consent URL: S256 challenge of the verifier the exchange sends, and a browser-bound cookie', async (t) => {
  const start = client.start(randomUUID());
  const query = new URL(start.url).searchParams;
  t.equal(query.get('code_challenge_method'), 'S256');
  t.match(query.get('code_challenge'), /^[A-Za-z0-9_-]{43}$/);
  t.match(start.cookie, /^asistente_oauth=[A-Za-z0-9_-]{43}; Path=\/api\/prueba\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/);
  const { code, state } = consent(start.url);
  const callback = await client.finish({ code, state }, oauthCookie(start.cookie));
  t.ok(callback.ok);
  if (!callback.ok) return;
  t.same(await callback.redeem(), { accessToken: 'acceso-1', refreshToken: 'renovar-1' }, 'the provider checked the verifier against the challenge');
  const sent = grants.at(-1)!;
  t.match(sent.code_verifier, /^[A-Za-z0-9_-]{43,128}$/, 'RFC 7636 verifier');
});

t.test('state: the starting browser only, once, across replicas; nothing is redeemed otherwise', async (t) => {
  const userId = randomUUID();
  const start = client.start(userId);
  const { code, state } = consent(start.url);
  const exchangesBefore = grants.length;
  t.same(await client.finish({ code, state }, undefined), { ok: false, reason: 'browser' }, 'another browser (no cookie)');
  t.same(await client.finish({ code, state: `${state}x` }, oauthCookie(start.cookie)), { ok: false, reason: 'invalid' }, 'tampered state');
  const done = await client.finish({ code, state }, oauthCookie(start.cookie));
  t.ok(done.ok && done.userId === userId, 'the browser that started it');
  const replica = new OAuthClient(new OAuthFlows('s'.repeat(32), platform.db.sql, 'calendar').flow('prueba', 'http://localhost:3000/api/prueba/callback'), strategy(true));
  t.same(await replica.finish({ code, state }, oauthCookie(start.cookie)), { ok: false, reason: 'replayed' }, 'spent for another replica');
  t.same(await client.finish({ code, state }, oauthCookie(start.cookie)), { ok: false, reason: 'replayed' }, 'and for this one');
  t.equal(grants.length, exchangesBefore, 'no code was sent to the token endpoint');
});

t.test('a consent the owner refused spends the state and says denied, with the provider word', async (t) => {
  const start = client.start(randomUUID());
  const { state } = consent(start.url);
  t.same(await client.finish({ state, error: 'access_denied' }, oauthCookie(start.cookie)), { ok: false, reason: 'denied', error: 'access_denied' });
  t.same(await client.finish({ state, code: 'x' }, oauthCookie(start.cookie)), { ok: false, reason: 'replayed' });
});

t.test('refresh: a rotated refresh token is the one stored; none sent keeps the one used', async (t) => {
  const stored: Tokens[] = [];
  const store = async (tokens: Tokens) => {
    stored.push(tokens);
  };
  const first = await client.renew('renovar-1', store);
  t.same(first, { accessToken: 'acceso-r1', refreshToken: 'renovar-r1' }, 'rotated');
  const second = await client.renew(first.refreshToken!, store);
  t.same(second, { accessToken: 'acceso-r2', refreshToken: 'renovar-r1' }, 'not rotated: the old one kept');
  t.same(stored, [first, second], 'each handed to storage before the call uses it');
  t.same(grants.slice(-2).map((g) => g.refresh_token), ['renovar-1', 'renovar-r1'], 'each refresh sent the token in force');
  const afterRefusal: Tokens[] = [];
  await t.rejects(renewGrant<Tokens>(() => Promise.reject(new Error('invalid_grant')), 'renovar-r1', async (tokens) => void afterRefusal.push(tokens)), /invalid_grant/);
  t.same(afterRefusal, [], 'nothing stored after a refusal');
});

t.test('revocation: sent to the provider that offers it, a 400 taken as done; none for a provider without', async (t) => {
  t.equal(await client.revoke('renovar-r1'), true);
  t.equal(await client.revoke('desconocido'), true, 'already unknown to the provider');
  await t.rejects(client.revoke('roto'), /HTTP 503/, 'a refusal is the caller’s to report');
  t.same(revoked, ['renovar-r1', 'desconocido', 'roto']);
  const withoutRevocation = new OAuthClient(flows.flow('sin-revocar', 'http://localhost:3000/api/sin/callback'), strategy(false));
  t.equal(await withoutRevocation.revoke('renovar-r1'), false, 'nothing sent: the caller only erases');
  t.equal(revoked.length, 3);
});
