import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';

// One reset mail per address per window at the service; the edge then allows 5 requests per client address.
const platform = await createTestPlatform(t, { config: { RATE_LIMIT_PASSWORD_RESET_MAX: 1 } });
const app = await buildGateway(platform, 'embedded');
await app.ready();
t.teardown(() => app.close());

const forgot = (email: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email }, remoteAddress });

t.test('the password reset routes answer without a token', async (t) => {
  const available = await app.inject({ url: '/api/auth/password/reset-available' });
  t.equal(available.statusCode, 200);
  t.same(available.json(), { available: false }, 'no SMTP_URL here');
  t.equal((await forgot('nadie@ejemplo.es', '10.0.0.1')).statusCode, 202);
  const reset = await app.inject({ method: 'POST', url: '/api/auth/password/reset', payload: { token: 'inventado', newPassword: 'Clave-Nueva-1' }, remoteAddress: '10.0.0.1' });
  t.equal(reset.statusCode, 400, 'the service answers (a 401 would mean the edge asked for a token)');
});

t.test('forgot and reset share a per-address budget at the edge; other addresses are unaffected', async (t) => {
  const statuses: number[] = [];
  // Another mailbox each time: only the edge's per-client limit can stop these.
  for (let i = 0; i < 5; i++) statuses.push((await forgot(`buzon${i}@ejemplo.es`, '10.0.0.2')).statusCode);
  t.same(statuses, [202, 202, 202, 202, 202]);
  const sixth = await app.inject({ method: 'POST', url: '/api/auth/password/reset', payload: { token: 'x', newPassword: 'Clave-Nueva-1' }, remoteAddress: '10.0.0.2' });
  t.equal(sixth.statusCode, 429, 'a reset attempt counts against the same budget');
  t.match(sixth.json().message, /Demasiados intentos/);
  t.equal((await forgot('otro@ejemplo.es', '10.0.0.3')).statusCode, 202, 'another client address');
  t.equal((await forgot('otro@ejemplo.es', '10.0.0.4')).statusCode, 429, 'the same mailbox from anywhere: the service limit');
});

t.test('another spelling of the path counts against the same budget, with or without a session sent along', async (t) => {
  const session = { authorization: 'Bearer cualquiera' };
  const spelled = ['/api/auth/password/%66orgot', '/api/auth/password/forgo%74', '/api/auth/./password/forgot'];
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const url = spelled[i % spelled.length]!;
    statuses.push((await app.inject({ method: 'POST', url, payload: { email: `b${i}@ejemplo.es` }, remoteAddress: '10.0.0.5', headers: session })).statusCode);
  }
  t.same(statuses, [202, 202, 202, 202, 202, 429]);
});
