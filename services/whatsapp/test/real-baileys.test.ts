// The real Baileys socket (no fake) against local WebSocket peers that drop or refuse the connection: the
// status says `error` with a Spanish reason, the service backs off and retries, and nothing hangs; an account
// that never linked stops after WHATSAPP_CONNECT_MAX_ATTEMPTS and says so, until it is asked again.
import { createServer, type AddressInfo } from 'node:net';
import t from 'tap';
import { WebSocketServer } from 'ws';
import { createTestPlatform } from '@asistente/kit/testing';
import { until, user, whatsappApp } from './support/harness.js';

/** A port nothing listens on: bound, read, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

t.test('a peer that accepts then drops: error with a Spanish reason, backoff, retries, clean stop', async (t) => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    ws.close();
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  const { port } = wss.address() as AddressInfo;

  const platform = await createTestPlatform(t, { config: { WHATSAPP_WS_URL: `ws://127.0.0.1:${port}/ws/chat` } });
  const h = await whatsappApp(t, platform, { makeSocket: undefined, connectTimeoutMs: 3_000 });
  const u = user(h.app);
  const connect = await u.call('POST', '/whatsapp/connect');
  t.equal(connect.status, 200, 'connect ends in a clear answer, not a hang and not a bare 503');
  t.match(connect.body, { connected: false, qrCode: null, state: 'error', message: /internet/ });
  const status = await u.call('GET', '/whatsapp/status');
  t.match(status.body, { state: 'error', connected: false, qrCode: null, error: /WhatsApp/ });
  await until(() => connections >= 3, 'retries with backoff');
  t.ok((await u.call('GET', '/whatsapp/health-panel')).body.reconnectsLastHour as number >= 2);
  t.same((await u.call('POST', '/whatsapp/disconnect')).body, { success: true });
  const after = connections;
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'disconnected', 'disconnected');
  t.ok(connections <= after + 1, 'no more attempts after disconnect');
});

t.test('a refused connection: error with a Spanish reason; the app closes without hanging', async (t) => {
  const port = await closedPort();
  const platform = await createTestPlatform(t, { config: { WHATSAPP_WS_URL: `ws://127.0.0.1:${port}/ws/chat` } });
  const h = await whatsappApp(t, platform, { makeSocket: undefined, connectTimeoutMs: 3_000 });
  const u = user(h.app);
  const connect = await u.call('POST', '/whatsapp/connect');
  t.equal(connect.status, 200);
  t.match(connect.body, { state: 'error', message: /WhatsApp/ });
  t.match((await u.call('GET', '/whatsapp/status')).body, { state: 'error', error: /WhatsApp/ });
  await h.app.close();
  t.pass('closed with a socket still retrying');
});

t.test('a peer that drops every connection of a never-linked account: bounded attempts, `failed`, then a retry', async (t) => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    ws.close();
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  const { port } = wss.address() as AddressInfo;
  const platform = await createTestPlatform(t, { config: { WHATSAPP_WS_URL: `ws://127.0.0.1:${port}/ws/chat`, WHATSAPP_CONNECT_MAX_ATTEMPTS: 2 } });
  const h = await whatsappApp(t, platform, { makeSocket: undefined, connectTimeoutMs: 3_000 });
  const u = user(h.app);
  await u.call('POST', '/whatsapp/connect');
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'failed', 'gave up');
  t.match((await u.call('GET', '/whatsapp/status')).body, { connected: false, qrCode: null, error: /varios intentos/ });
  t.equal(connections, 2, 'two attempts, then none');
  const session = h.sessions().local(u.userId);
  t.ok(session === undefined || session.isStopped, 'no socket left retrying');

  const retry = await u.call('POST', '/whatsapp/connect');
  t.equal(retry.status, 200);
  t.match(retry.body, { connected: false, qrCode: null, message: /WhatsApp/ });
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'failed', 'gave up again');
  t.equal(connections, 4, 'the retry made a fresh round of two');
});
