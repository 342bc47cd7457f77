import t from 'tap';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import authService from '../src/app.js';
import { HashingGate } from '../src/domain/hashing-gate.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, authService, platform);
const SHAPE = { statusCode: Number, code: String, error: String, message: String };

let n = 0;
const uniqueEmail = () => `clave${++n}.${Date.now()}@ejemplo.es`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function register(password = 'clave-larga-1'): Promise<{ token: string; password: string }> {
  const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Ana', lastName: 'López', email: uniqueEmail(), password } });
  return { token: res.json<{ token: string }>().token, password };
}

t.test('new passwords: no blanks only, no control characters, not a common one (Spanish messages)', async (t) => {
  const cases: [string, RegExp][] = [
    ['      ', /solo por espacios/],
    ['\u0000\u0000\u0000\u0000\u0000\u0000', /caracteres/],
    ['abc\u0007defg', /caracteres/],
    ['password123', /demasiado común/],
    ['Contraseña', /demasiado común/],
    ['qwerty123', /demasiado común/],
  ];
  for (const [password, message] of cases) {
    const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Ana', lastName: 'López', email: uniqueEmail(), password } });
    t.equal(res.statusCode, 400, JSON.stringify(password));
    t.match(res.json(), { ...SHAPE, message }, JSON.stringify(password));
  }
  const { token, password } = await register();
  const change = await app.inject({ method: 'PUT', url: '/auth/password', headers: bearer(token), payload: { currentPassword: password, newPassword: '123456789' } });
  t.equal(change.statusCode, 400);
  t.match(change.json().message, /demasiado común/);
});

t.test('the hashing gate runs a bounded number at once and refuses beyond its queue with a Spanish 503', async (t) => {
  const gate = new HashingGate(2, 1);
  let running = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const work = () =>
    gate.run(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
    });
  const accepted = [work(), work(), work()];
  const refused = await work().catch((error: unknown) => error);
  t.match(refused, { statusCode: 503, code: 'BUSY', message: /Inténtalo de nuevo/, headers: { 'retry-after': '2' } });
  t.equal(gate.queued, 1);
  while (releases.length > 0 || running > 0) {
    releases.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(accepted);
  t.equal(peak, 2, 'never more than the limit at once');
});

t.test('concurrent logins beyond the gate answer 503 in the house shape, never 500', async (t) => {
  // Hashes slow enough to overlap: each login first reserves its guess in the database, one after another.
  const busy = await createTestPlatform(t, { config: { HASH_CONCURRENCY: 1, HASH_QUEUE_MAX: 1, RATE_LIMIT_LOGIN_MAX: 100, SCRYPT_COST: 14 } });
  const small = await buildServiceApp(t, authService, busy);
  const email = uniqueEmail();
  await small.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'clave-larga-1' } });
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => small.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'incorrecta' } })),
  );
  const codes = answers.map((a) => a.statusCode);
  t.ok(codes.every((c) => c === 401 || c === 503), `only 401 and 503: ${codes.join(',')}`);
  t.ok(codes.includes(503), 'some were refused at once');
  const refused = answers.find((a) => a.statusCode === 503)!;
  t.match(refused.json(), { ...SHAPE, code: 'BUSY', message: /Inténtalo de nuevo/ });
});
