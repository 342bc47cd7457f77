import { randomBytes } from 'node:crypto';
import t from 'tap';
import authService from '@asistente/auth';
import { addressFromProof, CLIENT_ADDRESS_HEADER, clientAddressProof } from '@asistente/kit';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import { gatewayBeforeRecorder } from './support/proxied-gateway.js';

/**
 * Behind the gateway a service sees the gateway's address, so the security log would name the gateway for
 * every login. The gateway tells the service the client's address, signed with the token secret; the
 * service takes it only when the signature holds, and a client cannot send one of its own through.
 */
const secret = randomBytes(32).toString('hex');

t.test('a proof names its address, unaltered, for two seconds, made with this secret', async (t) => {
  const now = Date.now();
  for (const address of ['203.0.113.7', '2001:db8::1', '::ffff:10.0.0.1']) {
    t.equal(addressFromProof(secret, clientAddressProof(secret, address, now), now), address, address);
  }
  const proof = clientAddressProof(secret, '203.0.113.7', now);
  t.equal(addressFromProof(secret, proof, now + 2_000), '203.0.113.7', 'until its end');
  t.equal(addressFromProof(secret, proof, now + 2_001), undefined, 'not after');
  t.equal(addressFromProof('otro-secreto', proof, now), undefined, 'another secret');
  t.equal(addressFromProof(secret, proof.replace('203.0.113.7', '198.51.100.1'), now), undefined, 'another address under the same mac');
  const [until, mac] = proof.split('.');
  t.equal(addressFromProof(secret, `${Number(until) + 1000}.${mac}.203.0.113.7`, now), undefined, 'a later end');
  for (const bad of [undefined, '', '.', '..', `${until}.${mac}.`, `${until}..203.0.113.7`, ['a'], 7, `${until}.${mac}.${'1'.repeat(65)}`]) {
    t.equal(addressFromProof(secret, bad, now), undefined, `refused: ${JSON.stringify(bad)}`);
  }
});

t.test('the gateway signs the client\'s address on every proxied request and never passes on a client\'s header', async (t) => {
  const { base, seen } = await gatewayBeforeRecorder(t, secret);

  const forged = clientAddressProof('otro-secreto', '198.51.100.1');
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: forged },
    body: '{}',
  });
  t.equal(login.status, 200);
  const proxied = seen.at(-1)![CLIENT_ADDRESS_HEADER];
  t.not(proxied, forged, 'the client\'s header is replaced');
  // Read as of the moment it was made (its end minus its life), so a slow machine cannot age it here.
  const madeAt = Number(String(proxied).split('.')[0]) - 2_000;
  t.equal(addressFromProof(secret, proxied, madeAt), '127.0.0.1', 'the address the gateway saw, signed');
});

t.test('the security log behind the gateway names the client the gateway vouched for, never an unsigned claim', async (t) => {
  const platform = await createTestPlatform(t, { config: { JWT_SECRET: secret } });
  const auth = await buildServiceApp(t, authService, platform);
  const email = `direccion.${Date.now()}@ejemplo.es`;
  const registered = await auth.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });
  const { token } = registered.json() as { token: string };
  const login = (header?: string) =>
    auth.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'secreto1' }, remoteAddress: '10.0.0.5', headers: header ? { [CLIENT_ADDRESS_HEADER]: header } : {} });
  t.equal((await login(clientAddressProof(secret, '203.0.113.7'))).statusCode, 200, 'through the gateway');
  t.equal((await login(clientAddressProof('otro-secreto', '198.51.100.1'))).statusCode, 200, 'with a forged claim');
  t.equal((await login()).statusCode, 200, 'straight to the service');

  let rows: { ip: string | null }[] = [];
  for (let i = 0; i < 500 && rows.length < 3; i++) {
    const answer = await auth.inject({ url: '/account/activity', headers: { authorization: `Bearer ${token}` } });
    rows = (answer.json() as { data: { ip: string | null; type: string }[] }).data.filter((r) => r.type === 'login.succeeded');
    if (rows.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.same(rows.map((r) => r.ip).sort(), ['10.0.0.5', '10.0.0.5', '203.0.113.7'], 'the vouched-for client, else the connection\'s own address');
});
