import { hostname } from 'node:os';
import t from 'tap';
import { DisconnectReason } from '@whiskeysockets/baileys';
import { createTestPlatform, signToken } from '@asistente/kit/testing';
import { OWN_JID, FakePhone } from './support/fake-socket.js';
import { until, user, whatsappApp } from './support/harness.js';

// One platform for the file (a fresh PGlite costs seconds); every test signs in as users of its own.
const platform = await createTestPlatform(t);
const sql = platform.db.sql;
const leaseOwner = async (userId: string) => (await sql<{ leaseOwner: string | null }[]>`select lease_owner from whatsapp.accounts where user_id = ${userId}`)[0]?.leaseOwner;

/** Connect, scan, and wait for the open connection: a linked account. */
async function linked(h: Awaited<ReturnType<typeof whatsappApp>>) {
  const u = user(h.app);
  const connect = await u.call('POST', '/whatsapp/connect');
  const socket = h.phone.current;
  socket.scan();
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'connected');
  return { u, connect, firstSocket: socket };
}

t.test('connect shows a QR as a data URL, scanning links the account, creds are sealed one row per key', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = user(h.app);
  const before = await u.call('GET', '/whatsapp/status');
  t.match(before.body, { connected: false, qrCode: null, state: 'disconnected', phone: null, error: null });

  const connect = await u.call('POST', '/whatsapp/connect');
  t.equal(connect.status, 200);
  t.equal(connect.body.connected, false);
  t.match(connect.body.qrCode, /^data:image\/png;base64,/, 'QR rendered as an image');
  t.match((await u.call('GET', '/whatsapp/status')).body, { state: 'qr', connected: false, qrCode: /^data:image/ });

  h.phone.current.scan();
  const status = await until(async () => {
    const s = await u.call('GET', '/whatsapp/status');
    return s.body.state === 'connected' && s.body;
  }, 'connected after the pairing restart');
  t.match(status, { connected: true, qrCode: null, phone: `+${OWN_JID.split('@')[0]}`, name: 'Tienda Luz', error: null });
  t.equal(h.phone.sockets.length, 2, 'the 515 after pairing opened a second socket with the saved creds');

  const rows = await sql<{ key: string; valueEnc: string }[]>`select key, value_enc from whatsapp.auth_state where user_id = ${u.userId}`;
  t.ok(rows.some((r) => r.key === 'creds'), 'creds stored as its own row');
  t.ok(rows.every((r) => r.valueEnc.startsWith('v1:') && !r.valueEnc.includes('noiseKey')), 'every row sealed');
  const [account] = await sql<{ qrEnc: string | null }[]>`select qr_enc from whatsapp.accounts where user_id = ${u.userId}`;
  t.equal(account?.qrEnc, null, 'the QR is forgotten once linked');
  t.same((await u.call('POST', '/whatsapp/connect')).body, { connected: true, qrCode: null }, 'connect again: already connected');
});

t.test('a restart reconnects a linked account by itself, without a QR', async (t) => {
  const first = await whatsappApp(t, platform);
  const { u } = await linked(first);
  await first.app.close();
  t.equal((await sql`select lease_owner from whatsapp.accounts where user_id = ${u.userId}`)[0]?.leaseOwner, null, 'lease released on close');

  const phone = new FakePhone();
  const second = await whatsappApp(t, platform, {}, phone);
  const again = user(second.app);
  const call = (url: string) => second.app.inject({ url: `/api${url}`, headers: { authorization: u.authorization } }).then((r) => r.json());
  await until(async () => (await call('/whatsapp/status')).state === 'connected', 'reconnected after restart');
  t.equal(phone.qrCount, 0, 'no QR was needed');
  t.ok(again.userId, 'another user is unaffected');
});

t.test('a logged-out close wipes the creds and never reconnects; logout is a hard reset with a new QR', async (t) => {
  const h = await whatsappApp(t, platform);
  const { u } = await linked(h);
  const sockets = h.phone.sockets.length;
  h.phone.current.close(DisconnectReason.loggedOut);
  const status = await until(async () => {
    const s = await u.call('GET', '/whatsapp/status');
    return s.body.state === 'logged_out' && s.body;
  }, 'logged_out');
  t.match(status, { connected: false, error: /desvinculó/ });
  t.equal((await sql`select count(*)::int as n from whatsapp.auth_state where user_id = ${u.userId}`)[0]?.n, 0, 'creds wiped');
  await h.sessions().local(u.userId)?.idle();
  t.equal(h.phone.sockets.length, sockets, 'no reconnect attempt');
  t.equal((await u.call('POST', '/whatsapp/messages', { jid: '34611222333@s.whatsapp.net', type: 'text', text: 'hola' })).body.message, 'WhatsApp no está conectado');

  // Relink, then the hard reset.
  await u.call('POST', '/whatsapp/connect');
  h.phone.current.scan();
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'relinked');
  const linkedSocket = h.phone.current;
  const reset = await u.call('POST', '/whatsapp/logout');
  t.equal(reset.status, 200);
  t.match(reset.body, { success: true, connected: false, qrCode: /^data:image/ }, 'a new QR right away');
  t.ok(linkedSocket.loggedOut, 'the device was unlinked from the phone');

  // The security log: linked, unlinked from the phone, linked again, unlinked from the app; each change once, whichever path.
  const lines = await sql<{ data: { activity: string; detail: { provider?: string; account?: string } } }[]>`
    select data from whatsapp.outbox where user_id = ${u.userId} and type = 'security.activity.recorded' order by occurred_at, id`;
  const phone = `+${OWN_JID.split('@')[0]}`;
  t.same(
    lines.map((l) => [l.data.activity, l.data.detail]),
    [
      ['provider.connected', { provider: 'whatsapp', account: phone }],
      ['provider.disconnected', { provider: 'whatsapp', account: phone }],
      ['provider.connected', { provider: 'whatsapp', account: phone }],
      ['provider.disconnected', { provider: 'whatsapp', account: phone }],
    ],
  );
});

t.test('disconnect closes the socket and keeps the link; connect comes back without a QR', async (t) => {
  const h = await whatsappApp(t, platform);
  const { u } = await linked(h);
  const qrs = h.phone.qrCount;
  t.same((await u.call('POST', '/whatsapp/disconnect')).body, { success: true });
  t.match((await u.call('GET', '/whatsapp/status')).body, { state: 'disconnected', connected: false });
  t.ok(h.phone.current.ended);
  t.same((await u.call('POST', '/whatsapp/connect')).body, { connected: true, qrCode: null });
  t.equal(h.phone.qrCount, qrs, 'the link was kept');
});

t.test('transient closes reconnect with backoff and count in the health panel', async (t) => {
  const h = await whatsappApp(t, platform);
  const { u } = await linked(h);
  const count = h.phone.sockets.length;
  h.phone.current.close(DisconnectReason.connectionLost);
  await until(async () => h.phone.sockets.length > count && (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'reconnected');
  const health = await u.call('GET', '/whatsapp/health-panel');
  t.match(health.body, { state: 'connected', pendingMessages: 0, decryptFailures: 0 });
  t.ok((health.body.reconnectsLastHour as number) >= 1);
});

t.test('no answer names a server: the health panel is for the owner, the lease row for the operator', async (t) => {
  const h = await whatsappApp(t, platform);
  const { u } = await linked(h);
  const internal = h.sessions().owner;
  t.ok(internal.includes(hostname()) && internal.includes(String(process.pid)), 'the lease row still tells an operator where the socket runs');
  const health = await u.call('GET', '/whatsapp/health-panel');
  t.notOk('owner' in health.body, 'no server or replica in the panel');
  t.notOk(JSON.stringify(health.body).includes('réplica'), 'not even an opaque replica label');
  for (const [method, path] of [['GET', '/whatsapp/health-panel'], ['GET', '/whatsapp/status'], ['POST', '/whatsapp/connect']] as const) {
    const text = JSON.stringify((await u.call(method, path)).body);
    t.notOk(text.includes(hostname()), `${method} ${path}: no hostname`);
    t.notOk(text.includes(`:${process.pid}:`) || text.includes(internal), `${method} ${path}: no pid, no lease owner id`);
  }
});

t.test('a replica whose owner died takes the socket over after the lease expires', async (t) => {
  const h = await whatsappApp(t, platform);
  const { u } = await linked(h);
  const owner = h.sessions().owner;
  // Another replica held it and died: its lease is in the past and nothing renews it.
  h.sessions().local(u.userId)?.stop();
  await sql`update whatsapp.accounts set lease_owner = 'dead-replica', lease_until = now() - interval '1 second' where user_id = ${u.userId}`;
  await until(async () => (await sql`select lease_owner from whatsapp.accounts where user_id = ${u.userId}`)[0]?.leaseOwner === owner, 'taken over');
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'connected by the new owner');
  t.pass('taken over');
});

t.test("a live lease of another replica is respected: this one does not open a second socket", async (t) => {
  const h = await whatsappApp(t, platform, { exclusive: false });
  const u = user(h.app);
  await sql`insert into whatsapp.accounts (user_id, wanted, linked, state, lease_owner, lease_until)
            values (${u.userId}, true, true, 'connected', 'other-replica', now() + interval '1 hour')`;
  const before = h.phone.sockets.length;
  t.same((await u.call('POST', '/whatsapp/connect')).body, { connected: true, qrCode: null });
  t.equal(h.phone.sockets.length, before);
  t.equal(await leaseOwner(u.userId), 'other-replica', 'the live lease stays with its holder');
});

t.test(
  'a logout or disconnect asked of a replica that does not hold the socket reaches its owner at once',
  { skip: process.env.DATABASE_URL ? false : 'two replicas need PostgreSQL (the embedded database has one replica and no notifications)' },
  async (t) => {
    // Lease ticks far apart: only the notification can make the owner let go within the test.
    const slow = { exclusive: false, lease: { ttlMs: 120_000, tickMs: 60_000, connectWaitMs: 5_000 } };
    const a = await whatsappApp(t, platform, slow);
    const b = await whatsappApp(t, platform, slow, new FakePhone());
    const onA = user(a.app);
    const onB = sameUserOn(b.app, onA.userId);

    // The first time with a scan; after the disconnect the link is kept and A reconnects without a QR.
    const link = async (scan: boolean) => {
      await onA.call('POST', '/whatsapp/connect');
      if (scan) a.phone.current.scan();
      await until(async () => (await onA.call('GET', '/whatsapp/status')).body.state === 'connected', 'connected on A');
      t.equal(await leaseOwner(onA.userId), a.sessions().owner, 'A holds the socket');
      return a.phone.current;
    };

    const first = await link(true);
    t.same((await onB.call('POST', '/whatsapp/disconnect')).body, { success: true });
    t.ok(first.ended, "A's socket was closed by the time B answered");
    t.equal(a.sessions().local(onA.userId), undefined);
    t.match((await onA.call('GET', '/whatsapp/status')).body, { state: 'disconnected' });

    const second = await link(false);
    const reset = await onB.call('POST', '/whatsapp/logout');
    t.match(reset.body, { success: true, connected: false, qrCode: /^data:image/ }, 'a new QR right away');
    t.ok(second.loggedOut, 'the owner unlinked the device');
    t.equal(a.sessions().local(onA.userId), undefined, 'A dropped its socket');
    t.equal(await leaseOwner(onA.userId), b.sessions().owner, 'the new connection is on B');
    t.equal((await sql`select count(*)::int as n from whatsapp.auth_state where user_id = ${onA.userId}`)[0]?.n, 0, 'the old creds are gone');
  },
);

/** The same user signed in against another replica (tokens are the platform's). */
function sameUserOn(app: Awaited<ReturnType<typeof whatsappApp>>['app'], userId: string) {
  const { authorization } = signToken(app, userId);
  return {
    userId,
    call: async (method: 'GET' | 'POST', url: string) => {
      const response = await app.inject({ method, url: `/api${url}`, headers: { authorization } });
      return { status: response.statusCode, body: response.json() as Record<string, unknown> };
    },
  };
}
