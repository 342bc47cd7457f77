// Proves every password check inside a session (password change, account deletion) shares the login's budget of wrong guesses, per account and per address, kept in PostgreSQL.
import t, { type Test } from 'tap';
import { createPlatform } from '@asistente/kit';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import authService from '../src/app.js';

/** The defaults: 10 wrong passwords per account (50 per address) in a minute. */
const PER_ACCOUNT = 10;
const PER_ADDRESS = PER_ACCOUNT * 5;
const platform = await createTestPlatform(t, { config: { RATE_LIMIT_LOGIN_MAX: PER_ACCOUNT } });
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;

let n = 0;
/** Each test guesses from addresses of its own, so one test's guesses never spend another's budget. */
const address = () => `192.0.2.${++n}`;
const LIMITED = /^Demasiados intentos\. Vuelve a intentarlo en (\d+ segundos|un segundo|un minuto)$/;

async function registered() {
  const email = `limite${++n}.${Date.now()}@ejemplo.es`;
  const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Eva', lastName: 'Ruiz', email, password: 'secreto1' } });
  return { email, userId: res.json().user.id as string, authorization: `Bearer ${res.json().token as string}` };
}

const changePassword = (authorization: string, currentPassword: string, remoteAddress: string) =>
  app.inject({ method: 'PUT', url: '/auth/password', headers: { authorization }, payload: { currentPassword, newPassword: 'Otra-Clave-9' }, remoteAddress });
const deleteAccount = (authorization: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/account/delete', headers: { authorization }, payload: { password }, remoteAddress });
const login = (email: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });

function isLimited(t: Test, res: Awaited<ReturnType<typeof login>>, what: string) {
  t.equal(res.statusCode, 429, what);
  t.match(res.json(), { statusCode: 429, code: 'RATE_LIMITED', message: LIMITED }, `${what}: the Spanish message`);
  const wait = Number(res.headers['retry-after']);
  t.ok(Number.isInteger(wait) && wait >= 1 && wait <= 60, `${what}: Retry-After within the window (${res.headers['retry-after']})`);
}

t.test('15 wrong current passwords meet a 429 after the 10th, and then even the right one waits', async (t) => {
  const owner = await registered();
  const from = address();
  const statuses: number[] = [];
  for (let i = 0; i < 15; i++) statuses.push((await changePassword(owner.authorization, `mala-clave-${i}`, from)).statusCode);
  t.same(statuses, [...Array<number>(PER_ACCOUNT).fill(401), ...Array<number>(15 - PER_ACCOUNT).fill(429)]);
  isLimited(t, await changePassword(owner.authorization, 'secreto1', from), 'the right password, same address');
  isLimited(t, await changePassword(owner.authorization, 'secreto1', address()), 'the right password, another address');
  isLimited(t, await login(owner.email, 'secreto1', address()), 'the login of the same account');
  const other = await registered();
  t.equal((await changePassword(other.authorization, 'secreto1', from)).statusCode, 200, 'another account is not held back');
});

t.test("the login's wrong passwords and a session's count together", async (t) => {
  const owner = await registered();
  for (let i = 0; i < PER_ACCOUNT - 1; i++) t.equal((await login(owner.email, `mala-${i}`, address())).statusCode, 401, `wrong login ${i + 1}`);
  t.equal((await changePassword(owner.authorization, 'mala-ultima', address())).statusCode, 401, 'the 10th wrong guess, inside the session');
  isLimited(t, await login(owner.email, 'secreto1', address()), 'the login after it');
});

t.test('"Eliminar mi cuenta" counts with them, and nothing is deleted behind the limit', async (t) => {
  const owner = await registered();
  const from = address();
  for (let i = 0; i < PER_ACCOUNT; i++) {
    const res = await deleteAccount(owner.authorization, `mala-${i}`, from);
    t.equal(res.statusCode, 400, `wrong password ${i + 1}`);
    t.equal(res.json().code, 'INVALID_PASSWORD');
  }
  isLimited(t, await deleteAccount(owner.authorization, 'secreto1', from), 'the right password');
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from auth.users where id = ${owner.userId}`;
  t.equal(row!.n, 1, 'the account is still there');
});

t.test('a right password gives its guess back: only wrong ones count', async (t) => {
  const owner = await registered();
  const from = address();
  for (let i = 0; i < PER_ACCOUNT - 1; i++) await changePassword(owner.authorization, `mala-${i}`, from);
  t.equal((await login(owner.email, 'secreto1', from)).statusCode, 200, 'a right login');
  t.equal((await deleteAccount(owner.authorization, 'mala-otra', from)).statusCode, 400, 'the 10th wrong one is still a verdict');
  t.equal((await changePassword(owner.authorization, 'secreto1', from)).statusCode, 429, 'the 11th check waits');
});

t.test('guesses sent at once are counted before any is answered', async (t) => {
  const owner = await registered();
  const from = address();
  const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => changePassword(owner.authorization, `a-la-vez-${i}`, from)));
  const statuses = answers.map((r) => r.statusCode).sort();
  t.same(statuses, [...Array<number>(PER_ACCOUNT).fill(401), ...Array<number>(15 - PER_ACCOUNT).fill(429)]);
});

t.test('one address guessing at many accounts is limited too, the session checks included', async (t) => {
  const from = address();
  const owner = await registered();
  for (let i = 0; i < PER_ADDRESS; i++) {
    const res = await login(`nadie${i}.${Date.now()}@ejemplo.es`, 'mala-clave', from);
    if (res.statusCode !== 401) t.fail(`guess ${i + 1} answered ${res.statusCode}`);
  }
  isLimited(t, await changePassword(owner.authorization, 'secreto1', from), 'a session of an untouched account, from that address');
  t.equal((await changePassword(owner.authorization, 'secreto1', address())).statusCode, 200, 'the same session from another address');
});

t.test('the budget is rows in PostgreSQL, not any replica memory', async (t) => {
  const owner = await registered();
  const from = address();
  for (let i = 0; i < 3; i++) await changePassword(owner.authorization, `mala-${i}`, from);
  const [rows] = await sql<{ account: number; address: number }[]>`
    select count(*) filter (where key = ${`account:${owner.email}`})::int as account,
           count(*) filter (where key = ${`address:${from}`})::int as address
    from auth.password_failures`;
  t.same(rows, { account: 3, address: 3 }, 'one row per wrong guess and key');
});

t.test('two replicas of auth spend one budget', { skip: !process.env.DATABASE_URL && 'two replicas share a PostgreSQL database only' }, async (t) => {
  const replica = await createPlatform(platform.config, 'auth-replica', { log: platform.log });
  t.teardown(() => replica.close());
  const other = await buildServiceApp(t, authService, replica);
  const owner = await registered();
  const half = PER_ACCOUNT / 2;
  for (let i = 0; i < half; i++) t.equal((await changePassword(owner.authorization, `mala-${i}`, address())).statusCode, 401, `here ${i + 1}`);
  for (let i = 0; i < half; i++) {
    const res = await other.inject({ method: 'POST', url: '/auth/login', payload: { email: owner.email, password: `mala-alli-${i}` }, remoteAddress: address() });
    t.equal(res.statusCode, 401, `there ${i + 1}`);
  }
  isLimited(t, await changePassword(owner.authorization, 'secreto1', address()), 'back here, the 11th check');
});
