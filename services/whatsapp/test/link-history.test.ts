// What the connection screen tells apart, answered from the row every replica reads: whether the attempt showed
// a QR, whether a session is stored to reset, and whether a phone was ever linked (before that, no activity,
// outage or unreadable-message figures), through never-reached, unscanned, linked, disconnected and logged out.
import t from 'tap';
import { DisconnectReason } from '@whiskeysockets/baileys';
import { createTestPlatform, signToken } from '@asistente/kit/testing';
import { FakePhone } from './support/fake-socket.js';
import { until, user, whatsappApp } from './support/harness.js';

const platform = await createTestPlatform(t, { config: { WHATSAPP_CONNECT_MAX_ATTEMPTS: 2 } });

t.test('never reached: no QR shown, no session, never linked; the answers name the server, not the phone', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = user(h.app);
  t.match((await u.call('GET', '/whatsapp/status')).body, { state: 'disconnected', qrShown: false, hasSession: false });
  h.phone.refuse = true;
  const connect = await u.call('POST', '/whatsapp/connect');
  t.match(connect.body, { qrCode: null, message: /servidores de WhatsApp.*conexión a internet del servidor/ });
  t.notMatch(connect.body.message, /teléfono|QR|actualiza/i, 'nothing about the phone or a QR that never came');
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'failed', 'failed');
  t.match((await u.call('GET', '/whatsapp/status')).body, { qrShown: false, hasSession: false, error: /servidores de WhatsApp/ });
  t.match((await u.call('GET', '/whatsapp/health-panel')).body, { state: 'failed', everLinked: false });
  const retry = await u.call('POST', '/whatsapp/connect');
  t.match(retry.body, { state: /^(error|failed)$/, message: /conexión a internet del servidor/ });
});

t.test('a QR shown and left unscanned: qrShown, still no session; asking again starts with no QR shown', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = user(h.app);
  t.match((await u.call('POST', '/whatsapp/connect')).body, { qrCode: /^data:image/ });
  t.match((await u.call('GET', '/whatsapp/status')).body, { state: 'qr', qrShown: true, hasSession: false });
  // The QRs run out unscanned: the socket stops instead of retrying, whatever replica holds it next.
  h.phone.current.close(DisconnectReason.timedOut);
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'disconnected', 'stopped after the unscanned QRs');
  t.match((await u.call('GET', '/whatsapp/status')).body, { qrShown: true, hasSession: false });
  t.match((await u.call('GET', '/whatsapp/health-panel')).body, { everLinked: false });
  t.equal(h.phone.sockets.length, 1, 'no retry after the unscanned QRs');

  h.phone.refuse = true;
  await u.call('POST', '/whatsapp/connect');
  t.match((await u.call('GET', '/whatsapp/status')).body, { state: /^(error|failed)$/, qrShown: false }, 'the new attempt has shown no QR');
});

t.test('linked: a session to reset and a link with a history; logged out from the phone: no session, still linked once', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = user(h.app);
  await u.call('POST', '/whatsapp/connect');
  h.phone.current.scan();
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'linked');
  t.match((await u.call('GET', '/whatsapp/status')).body, { hasSession: true });
  t.match((await u.call('GET', '/whatsapp/health-panel')).body, { everLinked: true });

  t.same((await u.call('POST', '/whatsapp/disconnect')).body, { success: true });
  t.match((await u.call('GET', '/whatsapp/status')).body, { state: 'disconnected', hasSession: true }, 'disconnected keeps the session');

  await u.call('POST', '/whatsapp/connect');
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'connected', 'back without a QR');
  h.phone.current.close(DisconnectReason.loggedOut);
  await until(async () => (await u.call('GET', '/whatsapp/status')).body.state === 'logged_out', 'logged out');
  t.match((await u.call('GET', '/whatsapp/status')).body, { hasSession: false, error: /desvinculó/ });
  t.notMatch((await u.call('GET', '/whatsapp/status')).body.error, /QR/, 'no QR to scan is promised while none is shown');
  t.match((await u.call('GET', '/whatsapp/health-panel')).body, { everLinked: true });

  // Another replica (here: a restarted service) reads the same from the row.
  const { authorization } = signToken(h.app, u.userId);
  const other = await whatsappApp(t, platform, {}, new FakePhone());
  const health = await other.app.inject({ url: '/api/whatsapp/health-panel', headers: { authorization } });
  t.match(health.json(), { state: 'logged_out', everLinked: true });
});
