import { randomBytes } from 'node:crypto';
import t from 'tap';
import contactsService from '@asistente/contacts';
import { AcceptedProofs, acceptsTokenCheckedProof, TOKEN_CHECKED_HEADER, TOKEN_CHECKED_TTL_MS, tokenCheckedProof, TokenCheckedProofs } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { gatewayBeforeRecorder } from './support/proxied-gateway.js';

/**
 * Distributed, the gateway checks a token against the revocations and the service behind would check it
 * again: one more database round trip per request. The gateway now hands the service a short-lived proof
 * of its check, bound to the exact token and made with the token secret; the service still verifies the
 * token itself and skips only its revocation read.
 */
const secret = randomBytes(32).toString('hex');
const jti = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;

t.test('a proof holds for its own token, unaltered, for two seconds', async (t) => {
  const now = Date.now();
  const proof = tokenCheckedProof(secret, 'token-a', now);
  t.ok(acceptsTokenCheckedProof(secret, 'token-a', proof, now));
  t.ok(acceptsTokenCheckedProof(secret, 'token-a', proof, now + TOKEN_CHECKED_TTL_MS), 'until its end');
  t.notOk(acceptsTokenCheckedProof(secret, 'token-a', proof, now + TOKEN_CHECKED_TTL_MS + 1), 'not after');
  t.notOk(acceptsTokenCheckedProof(secret, 'token-b', proof, now), 'another token');
  t.notOk(acceptsTokenCheckedProof('otro-secreto', 'token-a', proof, now), 'another secret');
  const [until, mac] = proof.split('.');
  t.notOk(acceptsTokenCheckedProof(secret, 'token-a', `${Number(until) + 1000}.${mac}`, now), 'a later end with the same mac');
  const far = tokenCheckedProof(secret, 'token-a', now + 60_000);
  t.notOk(acceptsTokenCheckedProof(secret, 'token-a', far, now), 'one that ends too far ahead');
  for (const bad of [undefined, '', '.', 'x.y', `${until}.`, `${until}`, ['a', 'b'], 42]) {
    t.notOk(acceptsTokenCheckedProof(secret, 'token-a', bad, now), `refused: ${JSON.stringify(bad)}`);
  }
});

t.test('the gateway makes one proof per token per half its life, each holding a second at least', async (t) => {
  const proofs = new TokenCheckedProofs(secret, 2);
  const now = Date.now();
  const first = proofs.for('token-a', now);
  t.equal(proofs.for('token-a', now + TOKEN_CHECKED_TTL_MS / 2), first, 'handed on while half its life is left');
  t.ok(acceptsTokenCheckedProof(secret, 'token-a', first, now + TOKEN_CHECKED_TTL_MS), 'and it holds a second after that');
  const later = now + TOKEN_CHECKED_TTL_MS / 2 + 1;
  const second = proofs.for('token-a', later);
  t.not(second, first, 'a fresh one once less than half is left');
  t.ok(acceptsTokenCheckedProof(secret, 'token-a', second, later + TOKEN_CHECKED_TTL_MS), 'holding its full time');
  const other = proofs.for('token-b', now);
  t.ok(acceptsTokenCheckedProof(secret, 'token-b', other, now), 'each token its own');
  t.notOk(acceptsTokenCheckedProof(secret, 'token-a', other, now), 'never another token\'s');
  t.ok(acceptsTokenCheckedProof(secret, 'token-c', proofs.for('token-c', now), now), 'a full map starts again');
});

t.test('a service keeps the proofs it accepted and still asks each time whether they hold', async (t) => {
  const accepted = new AcceptedProofs(secret, 2);
  const now = Date.now();
  const proof = tokenCheckedProof(secret, 'token-a', now);
  t.ok(accepted.accepts('token-a', proof, now), 'a valid proof');
  t.ok(accepted.accepts('token-a', proof, now + 1), 'again, for the same token');
  t.notOk(accepted.accepts('token-b', proof, now), 'never for another token, kept or not');
  t.notOk(accepted.accepts('token-a', proof, now + TOKEN_CHECKED_TTL_MS + 1), 'not once its end has passed, though kept');
  const [until, mac] = proof.split('.');
  t.notOk(accepted.accepts('token-a', `${Number(until) + 1}.${mac}`, now), 'another end with the kept mac');
  t.notOk(accepted.accepts('token-a', `${until}.${'A'.repeat(mac!.length)}`, now), 'a forged mac');
  t.notOk(new AcceptedProofs('otro-secreto', 2).accepts('token-a', proof, now), 'a proof made with another secret');
  for (const bad of [undefined, '', '.', `${until}.`, ['a'], 42]) t.notOk(accepted.accepts('token-a', bad, now), `refused: ${JSON.stringify(bad)}`);
  const others = ['token-c', 'token-d', 'token-e'].map((token) => [token, tokenCheckedProof(secret, token, now)] as const);
  for (const [token, made] of others) t.ok(accepted.accepts(token, made, now), `${token}: a full map starts again`);
  t.ok(accepted.accepts('token-a', proof, now), 'a proof dropped with the map is checked again and still holds');
});

t.test('the gateway sends its proof for a checked token and never passes on one a client sent', async (t) => {
  const { gateway, base, seen } = await gatewayBeforeRecorder(t, secret);

  const { token, authorization } = signToken(gateway);
  const forged = `${Date.now() + 1000}.no-es-una-prueba`;
  t.equal((await fetch(`${base}/api/contacts`, { headers: { authorization, [TOKEN_CHECKED_HEADER]: forged } })).status, 200);
  const proxied = seen.at(-1)![TOKEN_CHECKED_HEADER];
  t.not(proxied, forged, 'the client\'s header is not passed on');
  // Checked as of the moment it was made (its end minus its life), so a slow machine cannot age it here.
  const madeAt = Number(String(proxied).split('.')[0]) - TOKEN_CHECKED_TTL_MS;
  t.ok(acceptsTokenCheckedProof(secret, token, proxied, madeAt), 'the gateway\'s proof for this token');

  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TOKEN_CHECKED_HEADER]: tokenCheckedProof(secret, token) },
    body: '{}',
  });
  t.equal(login.status, 200);
  t.equal(seen.at(-1)![TOKEN_CHECKED_HEADER], undefined, 'a public route carries no proof, not even a valid one a client replays');

  const refused = await fetch(`${base}/api/contacts`, { headers: { authorization: 'Bearer no.es.token' } });
  t.equal(refused.status, 401);
  t.equal(seen.length, 2, 'a refused token never reaches the service');
});

t.test('the service skips its own revocation read only on a valid proof for the very token', async (t) => {
  const platform = await createTestPlatform(t, { config: { JWT_SECRET: secret } });
  const service = await buildServiceApp(t, contactsService, platform);
  const { userId, token, authorization } = signToken(service);
  await platform.revocations.revoke(jti(token), userId, new Date(Date.now() + 3_600_000));
  const list = (headers: Record<string, string>) => service.inject({ url: '/contacts', headers: { authorization, ...headers } });

  t.equal((await list({})).statusCode, 401, 'revoked, no proof: the service reads the revocation');
  t.equal((await list({ [TOKEN_CHECKED_HEADER]: tokenCheckedProof('otro-secreto', token) })).statusCode, 401, 'a proof made with another secret');
  t.equal((await list({ [TOKEN_CHECKED_HEADER]: tokenCheckedProof(secret, 'otro.token.firmado') })).statusCode, 401, 'a proof for another token');
  t.equal((await list({ [TOKEN_CHECKED_HEADER]: tokenCheckedProof(secret, token, Date.now() - 3_000) })).statusCode, 401, 'an expired proof');
  t.equal((await list({ [TOKEN_CHECKED_HEADER]: tokenCheckedProof(secret, token) })).statusCode, 200, 'the gateway vouched for this token just now');
  const forged = await service.inject({ url: '/contacts', headers: { authorization: 'Bearer no.es.token', [TOKEN_CHECKED_HEADER]: tokenCheckedProof(secret, 'no.es.token') } });
  t.equal(forged.statusCode, 401, 'a proof never stands in for the token\'s own signature');
});
