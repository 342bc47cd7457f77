import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createEvent } from '@asistente/kit';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import authService from '../src/app.js';
import { purgeOldSecurityActivity } from '../src/domain/security-activity-purge.js';
import { SecurityActivityRepository } from '../src/domain/security-activity.repository.js';

const platform = await createTestPlatform(t, { nats: true });
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let n = 0;

async function register() {
  const email = `seguridad${++n}.${Date.now()}@ejemplo.es`;
  const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });
  const { user, token } = res.json();
  return { email, userId: user.id as string, authorization: `Bearer ${token}` };
}

const login = (email: string, password: string) =>
  app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, headers: { 'user-agent': CHROME_WINDOWS }, remoteAddress: '203.0.113.7' });

const activity = (authorization: string, query = '') => app.inject({ url: `/account/activity${query}`, headers: { authorization } });

/** Waits for the consumer to have written `count` rows for the user (a state, not a time). */
async function rowsOf(userId: string, count: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const [row] = await sql<{ n: string }[]>`select count(*) as n from auth.security_activity where user_id = ${userId}`;
    if (Number(row!.n) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`security activity of ${userId} never reached ${count} rows`);
}

t.test('logins, a failed login, a password change and a logout are logged, newest first and paged', async (t) => {
  const owner = await register();
  t.equal((await login(owner.email, 'equivocada')).statusCode, 401);
  const ok = await login(owner.email, 'secreto1');
  t.equal(ok.statusCode, 200);
  const session = `Bearer ${ok.json().token}`;
  await rowsOf(owner.userId, 2);
  t.equal((await app.inject({ method: 'POST', url: '/auth/logout', headers: { authorization: session } })).statusCode, 204);
  await rowsOf(owner.userId, 3);
  // Changed from the first session, which stays signed in (the others end).
  const change = await app.inject({
    method: 'PUT',
    url: '/auth/password',
    payload: { currentPassword: 'secreto1', newPassword: 'otraClave9' },
    headers: { authorization: owner.authorization, 'user-agent': CHROME_WINDOWS },
  });
  t.equal(change.statusCode, 200);
  await rowsOf(owner.userId, 4);

  const all = (await activity(owner.authorization)).json();
  t.same(all.data.map((r: { type: string }) => r.type), ['password.changed', 'logout', 'login.succeeded', 'login.failed'], 'newest first');
  t.same(all.pagination, { total: 4, page: 1, limit: 20 });
  t.match(all.data[3], { ip: '203.0.113.7', userAgent: CHROME_WINDOWS, detail: {} });
  const raw = JSON.stringify(all);
  t.notMatch(raw, /secreto1|otraClave9|equivocada/, 'no password in the log');

  const second = (await activity(owner.authorization, '?page=2&limit=3')).json();
  t.same(second.data.map((r: { type: string }) => r.type), ['login.failed']);
  t.same(second.pagination, { total: 4, page: 2, limit: 3 });
});

t.test('an unknown address records nothing; another user sees none of it', async (t) => {
  const owner = await register();
  const other = await register();
  t.equal((await login(`nadie.${Date.now()}@ejemplo.es`, 'secreto1')).statusCode, 401);
  await login(owner.email, 'mala-clave');
  await rowsOf(owner.userId, 1);
  const theirs = (await activity(other.authorization)).json();
  t.same(theirs, { data: [], pagination: { total: 0, page: 1, limit: 20 } });
  const [unknown] = await sql<{ n: string }[]>`select count(*) as n from auth.security_activity where user_id not in (select id from auth.users)`;
  t.equal(Number(unknown!.n), 0);
});

t.test('bad page or limit is a 400 in Spanish', async (t) => {
  const owner = await register();
  for (const query of ['?page=0', '?page=x', '?limit=0', '?limit=101', '?otro=1']) {
    const res = await activity(owner.authorization, query);
    t.equal(res.statusCode, 400, query);
    t.match(res.json().message, /página|límite|permitido/i, query);
  }
  t.equal((await app.inject({ url: '/account/activity' })).statusCode, 401);
});

t.test('a provider event from another service is logged once, however often it is delivered', async (t) => {
  const owner = await register();
  const event = createEvent('security.activity.recorded', owner.userId, {
    activity: 'openai_key.saved' as const,
    ip: '198.51.100.4',
    userAgent: null,
    detail: {},
  });
  const mail = createEvent('security.activity.recorded', owner.userId, {
    activity: 'provider.connected' as const,
    ip: null,
    userAgent: null,
    detail: { provider: 'email' as const, account: 'ventas@ejemplo.es' },
  });
  await platform.bus.publish([event, mail]);
  await rowsOf(owner.userId, 2);
  // A redelivery (after a crash between commit and ack) goes through the consumer again.
  await platform.bus.publish([event]);
  const marker = createEvent('security.activity.recorded', owner.userId, { activity: 'logout' as const, ip: null, userAgent: null, detail: {} });
  await platform.bus.publish([marker]);
  await rowsOf(owner.userId, 3);
  const [row] = await sql<{ n: string }[]>`select count(*) as n from auth.security_activity where id = ${event.id}`;
  t.equal(Number(row!.n), 1, 'written once');
  const page = (await activity(owner.authorization)).json();
  t.equal(page.pagination.total, 3);
  t.match(page.data.find((r: { type: string }) => r.type === 'provider.connected'), { detail: { provider: 'email', account: 'ventas@ejemplo.es' } });
});

t.test('rows older than 90 days are purged in batches, newer ones kept', async (t) => {
  const owner = await register();
  const day = 24 * 60 * 60 * 1000;
  const old = Array.from({ length: 7 }, (_, i) => ({ id: randomUUID(), at: new Date(Date.now() - (91 + i) * day) }));
  const fresh = { id: randomUUID(), at: new Date(Date.now() - 89 * day) };
  for (const r of [...old, fresh]) {
    await sql`insert into auth.security_activity (id, user_id, type, at, detail) values (${r.id}, ${owner.userId}, 'login.succeeded', ${r.at}, '{}')`;
  }
  const deleted = await purgeOldSecurityActivity(new SecurityActivityRepository(sql), new Date(), 3);
  t.equal(deleted, 7, 'every old row, three at a time');
  const left = await sql<{ id: string }[]>`select id from auth.security_activity where user_id = ${owner.userId}`;
  t.same(left.map((r) => r.id), [fresh.id]);
});
