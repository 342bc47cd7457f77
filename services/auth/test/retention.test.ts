import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import authService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;
let n = 0;

async function register() {
  const email = `conserva${++n}.${Date.now()}@ejemplo.es`;
  const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });
  const { user, token } = res.json();
  return { userId: user.id as string, authorization: `Bearer ${token}` };
}

const get = (authorization: string) => app.inject({ url: '/account/retention', headers: { authorization } });
const put = (authorization: string, payload: unknown) => app.inject({ method: 'PUT', url: '/account/retention', headers: { authorization }, payload: payload as object });
const eventsOf = async (userId: string) =>
  sql<{ data: unknown }[]>`select data from auth.outbox where user_id = ${userId} and type = 'account.retention.changed' order by seq`;

t.test('forever by default; a change is kept, answered and announced once through the outbox', async (t) => {
  const owner = await register();
  t.same((await get(owner.authorization)).json(), { whatsappDays: null, emailBodyDays: null, aiRunDays: null });
  const saved = await put(owner.authorization, { whatsappDays: 90, emailBodyDays: 30, aiRunDays: null });
  t.equal(saved.statusCode, 200);
  t.same(saved.json(), { whatsappDays: 90, emailBodyDays: 30, aiRunDays: null });
  t.same((await get(owner.authorization)).json(), { whatsappDays: 90, emailBodyDays: 30, aiRunDays: null });
  t.same((await eventsOf(owner.userId)).map((e) => e.data), [{ whatsappDays: 90, emailBodyDays: 30, aiRunDays: null }]);

  const other = await register();
  t.same((await get(other.authorization)).json(), { whatsappDays: null, emailBodyDays: null, aiRunDays: null }, "another owner's settings are their own");
});

t.test('bad input is a 400 in Spanish and writes nothing', async (t) => {
  const owner = await register();
  await put(owner.authorization, { whatsappDays: 30, emailBodyDays: null, aiRunDays: 365 });
  const bad: [unknown, RegExp][] = [
    [{ whatsappDays: 0, emailBodyDays: null, aiRunDays: null }, /entre 1 y 3650/],
    [{ whatsappDays: 3651, emailBodyDays: null, aiRunDays: null }, /entre 1 y 3650/],
    [{ whatsappDays: 1.5, emailBodyDays: null, aiRunDays: null }, /número entero de días/],
    [{ whatsappDays: '30', emailBodyDays: null, aiRunDays: null }, /Para siempre/],
    [{ whatsappDays: 30, emailBodyDays: null }, /Falta "aiRunDays"/],
    [{ whatsappDays: 30, emailBodyDays: null, aiRunDays: null, contactsDays: 5 }, /Campo no permitido: "contactsDays"/],
    [[30, 30, 30], /objeto JSON/],
  ];
  for (const [payload, message] of bad) {
    const res = await put(owner.authorization, payload);
    t.equal(res.statusCode, 400, JSON.stringify(payload));
    t.match(res.json().message, message);
  }
  t.same((await get(owner.authorization)).json(), { whatsappDays: 30, emailBodyDays: null, aiRunDays: 365 }, 'unchanged');
  t.equal((await eventsOf(owner.userId)).length, 1, 'no event for a refused change');
});

t.test('sessions only: no token is a 401, a personal access token a 403', async (t) => {
  t.equal((await app.inject({ url: '/account/retention' })).statusCode, 401);
  const owner = await register();
  const scoped = signToken(app, owner.userId, ['whatsapp:read']);
  const read = await get(scoped.authorization);
  t.equal(read.statusCode, 403);
  t.match(read.json(), { statusCode: 403, message: String });
  t.equal((await put(scoped.authorization, { whatsappDays: 30, emailBodyDays: 30, aiRunDays: 30 })).statusCode, 403);
  t.same((await get(owner.authorization)).json(), { whatsappDays: null, emailBodyDays: null, aiRunDays: null });
});
