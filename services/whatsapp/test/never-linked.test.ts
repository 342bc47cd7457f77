// An account that never linked and cannot reach WhatsApp: bounded retries, then `failed` in the row every
// replica reads, a plain Spanish answer instead of a 503, and "Reintentar" (connect) starts again.
import t, { type Test } from 'tap';
import { createTestPlatform, signToken } from '@asistente/kit/testing';
import { GAVE_UP_REASON } from '../src/domain/connect-advice.js';
import { FakePhone } from './support/fake-socket.js';
import { until, user, whatsappApp, type Harness } from './support/harness.js';

const MAX_ATTEMPTS = 3;
const platform = await createTestPlatform(t, { config: { WHATSAPP_CONNECT_MAX_ATTEMPTS: MAX_ATTEMPTS } });
const sql = platform.db.sql;

const row = async (userId: string) =>
  (await sql<{ wanted: boolean; state: string; failedAttempts: number }[]>`select wanted, state, failed_attempts from whatsapp.accounts where user_id = ${userId}`)[0];

async function failedAccount(t: Test, h: Harness) {
  const u = user(h.app);
  h.phone.refuse = true;
  const connect = await u.call('POST', '/whatsapp/connect');
  t.equal(connect.status, 200, 'never a bare 503');
  t.match(connect.body, { connected: false, qrCode: null, state: /^(error|failed)$/, message: /internet/ });
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'failed', 'failed after the bounded retries');
  return u;
}

t.test('a phone that cannot be reached: a few attempts, then `failed` with a plain reason; nothing retries after', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await failedAccount(t, h);
  t.match((await u.call('GET', '/whatsapp/status')).body, { connected: false, qrCode: null, state: 'failed', error: GAVE_UP_REASON });
  t.equal(h.phone.sockets.length, MAX_ATTEMPTS, `exactly ${MAX_ATTEMPTS} attempts`);
  t.match(await row(u.userId), { wanted: false, state: 'failed', failedAttempts: MAX_ATTEMPTS }, 'no replica will claim it again');
  const session = h.sessions().local(u.userId);
  t.ok(session === undefined || session.isStopped, 'the socket gave up');
  t.match((await u.call('GET', '/whatsapp/health-panel')).body, { state: 'failed', error: GAVE_UP_REASON });

  // Asked again while still failing: the same plain answer, and the bound starts over.
  const again = await u.call('POST', '/whatsapp/connect');
  t.equal(again.status, 200);
  t.match(again.body, { connected: false, qrCode: null, message: /WhatsApp/ });
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'failed', 'failed again');
  t.equal(h.phone.sockets.length, 2 * MAX_ATTEMPTS, 'the retry made a fresh round of attempts');

  // The phone is back: "Reintentar" shows a QR and the link works.
  h.phone.refuse = false;
  const retry = await u.call('POST', '/whatsapp/connect');
  t.match(retry.body, { connected: false, qrCode: /^data:image\/png;base64,/ });
  t.notOk('message' in retry.body, 'a QR needs no advice');
  h.phone.current.scan();
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'linked');
  t.match(await row(u.userId), { failedAttempts: 0 });
});

t.test('the retries between attempts say which attempt it is', async (t) => {
  const slow = new FakePhone();
  // Backoff long enough to read the state between two attempts; the test waits for the state, not the time.
  const h = await whatsappApp(t, platform, { timing: { backoffBaseMs: 60_000, backoffMaxMs: 60_000 } }, slow);
  const u = user(h.app);
  slow.refuse = true;
  const connect = await u.call('POST', '/whatsapp/connect');
  t.match(connect.body, { state: 'error', message: /lo seguimos intentando/ });
  t.match((await u.call('GET', '/whatsapp/status')).body, { state: 'error', error: new RegExp(`Reintentando… \\(intento 1 de ${MAX_ATTEMPTS}\\)`) });
  // Pressing connect during the wait skips it (one more attempt now), not a second socket beside the first.
  slow.refuse = false;
  const retry = await u.call('POST', '/whatsapp/connect');
  t.match(retry.body, { qrCode: /^data:image/ });
  t.equal(slow.sockets.length, 2);
});

t.test('the time bound: attempts failing for longer than WHATSAPP_CONNECT_MAX_MS give up too', async (t) => {
  const h = await whatsappApp(t, platform, { timing: { backoffBaseMs: 60_000, backoffMaxMs: 60_000 } });
  const u = user(h.app);
  h.phone.refuse = true;
  t.match((await u.call('POST', '/whatsapp/connect')).body, { state: 'error' });
  // The first failure was long ago (as if the retries had run for an hour): the next failure is the last.
  await sql`update whatsapp.accounts set first_failed_at = now() - interval '1 hour' where user_id = ${u.userId}`;
  await h.sessions().local(u.userId)!.reconnectNow();
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'failed', 'failed by time');
  t.equal(h.phone.sockets.length, 2, `gave up after 2 attempts, before the ${MAX_ATTEMPTS} of the count bound`);
});

t.test('"Restablecer sesión" while WhatsApp cannot be reached: a plain answer, not a 503', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await failedAccount(t, h);
  const reset = await u.call('POST', '/whatsapp/logout');
  t.equal(reset.status, 200);
  t.match(reset.body, { success: true, connected: false, qrCode: null, state: /^(error|failed)$/, message: /internet/ });
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'failed', 'failed again after the reset');
});

t.test('a linked account is never given up on: it keeps reconnecting', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = user(h.app);
  await u.call('POST', '/whatsapp/connect');
  h.phone.current.scan();
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'linked');
  h.phone.refuse = true;
  const before = h.phone.sockets.length;
  h.phone.current.close(428);
  await until(() => h.phone.sockets.length >= before + MAX_ATTEMPTS + 2, 'more attempts than the bound');
  t.not((await u.call('GET', '/whatsapp/status')).body.state, 'failed');
  h.phone.refuse = false;
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'reconnected');
});

t.test('a restart keeps `failed`: the account is not reconnected behind the owner', async (t) => {
  const first = await whatsappApp(t, platform);
  const u = await failedAccount(t, first);
  await first.app.close();
  const phone = new FakePhone();
  const second = await whatsappApp(t, platform, {}, phone);
  const { authorization } = signToken(second.app, u.userId);
  const status = await second.app.inject({ url: '/api/whatsapp/status', headers: { authorization } });
  t.match(status.json(), { state: 'failed', error: GAVE_UP_REASON });
  await second.sessions().close();
  t.equal(phone.sockets.length, 0, 'no socket was opened for it');
});

t.test(
  'Reintentar asked of a replica without the socket reaches the one holding the lease at once',
  { skip: process.env.DATABASE_URL ? false : 'two replicas need PostgreSQL (the embedded database has one replica and no notifications)' },
  async (t) => {
    // Lease ticks far apart: only the notification can make A start again within the test.
    const slow = { exclusive: false, lease: { ttlMs: 120_000, tickMs: 60_000, connectWaitMs: 5_000 } };
    const a = await whatsappApp(t, platform, slow);
    const b = await whatsappApp(t, platform, slow, new FakePhone());
    const onA = await failedAccount(t, a);
    const [lease] = await sql<{ leaseOwner: string }[]>`select lease_owner from whatsapp.accounts where user_id = ${onA.userId}`;
    t.equal(lease?.leaseOwner, a.sessions().owner, "A's lease is still live");
    const { authorization } = signToken(b.app, onA.userId);
    const onB = async (method: 'GET' | 'POST', url: string) => (await b.app.inject({ method, url: `/api${url}`, headers: { authorization } })).json<Record<string, unknown>>();
    t.match(await onB('GET', '/whatsapp/status'), { state: 'failed' }, 'B sees the same state');

    a.phone.refuse = false;
    const retry = await onB('POST', '/whatsapp/connect');
    t.match(retry, { connected: false, qrCode: /^data:image/ }, 'the QR of the socket A started again');
    t.equal(b.phone.sockets.length, 0, 'B opened no second socket');
  },
);

t.test(
  'connect asked of a replica without the socket skips the backoff wait of the one holding it',
  { skip: process.env.DATABASE_URL ? false : 'two replicas need PostgreSQL (the embedded database has one replica and no notifications)' },
  async (t) => {
    // Backoff of a minute and lease ticks far apart: only the notification can bring A's next attempt now.
    const slow = { exclusive: false, lease: { ttlMs: 120_000, tickMs: 60_000, connectWaitMs: 5_000 }, timing: { backoffBaseMs: 60_000, backoffMaxMs: 60_000 } };
    const a = await whatsappApp(t, platform, slow);
    const b = await whatsappApp(t, platform, slow, new FakePhone());
    const onA = user(a.app);
    a.phone.refuse = true;
    t.match((await onA.call('POST', '/whatsapp/connect')).body, { state: 'error' });
    t.ok(a.sessions().local(onA.userId)?.isRetrying, 'A waits out its backoff');

    a.phone.refuse = false;
    const { authorization } = signToken(b.app, onA.userId);
    const retry = (await b.app.inject({ method: 'POST', url: '/api/whatsapp/connect', headers: { authorization } })).json<Record<string, unknown>>();
    t.match(retry, { connected: false, qrCode: /^data:image/ }, "A's next attempt ran at once and its QR reached B's answer");
    t.equal(a.phone.sockets.length, 2);
    t.equal(b.phone.sockets.length, 0, 'B opened no second socket');
  },
);
