import t from 'tap';
import { calendarWithPeer, inDays } from './calendar-app.js';
import { connectGoogle } from './connect.js';
import type { PeerChannel } from './google-peer.js';

// Google only pushes to https addresses: this process's public URL is one.
const PUBLIC_URL = 'https://app.ejemplo.test';
const { peer, app, sql } = await calendarWithPeer(t, PUBLIC_URL);

/** Polls `check` until it holds (a state, not a delay); fails the test after a generous deadline. */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

t.test('a change notified by Google refreshes the mirror; channels are renewed and stopped on disconnect', async (t) => {
  const email = 'push@ejemplo.com';
  const { authorization, userId } = await connectGoogle(app, peer, email);
  const url = `/google/events/calendar/primary?dateFrom=${inDays(0, 0).toISOString()}&dateTo=${inDays(20, 0).toISOString()}`;
  const titles = async () => (await app.inject({ url, headers: { authorization } })).json().map((e: { title: string }) => e.title);
  t.same(await titles(), [], 'first view mirrors the calendar');

  const channel = await until('a channel is opened', () => peer.openChannels(email)[0]);
  t.equal(channel.address, `${PUBLIC_URL}/api/google/notifications`);
  t.match(channel.token, /^[\w-]{43}$/, 'a random secret token');
  await until('the channel is stored', async () => (await sql`select 1 from calendar.watch_channels where id = ${channel.id}`).length === 1);
  const [stored] = await sql<{ tokenHash: string }[]>`select token_hash from calendar.watch_channels where id = ${channel.id}`;
  t.not(stored!.tokenHash, channel.token, 'only its hash is kept');

  const notify = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/google/notifications', headers });
  const opened = await notify(peer.notification(channel, 'sync'));
  t.equal(opened.statusCode, 200, 'the sync message that opens a channel is acknowledged');

  peer.putEvent(email, email, { id: 'nuevo', summary: 'Creado en el móvil', start: { dateTime: inDays(2).toISOString() }, end: { dateTime: inDays(2, 11).toISOString() } });
  t.same(await titles(), [], 'a fresh mirror does not ask Google by itself');
  const listings = peer.apiRequests(`/calendars/${email}/events`, 'GET').length;
  const pushed = await notify(peer.notification(channel));
  t.equal(pushed.statusCode, 200, pushed.body);
  await until('the notified change reaches the mirror', async () => ((await titles()).includes('Creado en el móvil') ? true : undefined));
  const incremental = peer.apiRequests(`/calendars/${email}/events`, 'GET').slice(listings);
  t.equal(incremental.length, 1, 'one listing for the notification');
  t.match(incremental[0]!.query.syncToken, /^sync-/, 'with the sync token');

  const wrongToken = await notify({ ...peer.notification(channel), 'x-goog-channel-token': 'no-es-el-token' });
  t.equal(wrongToken.statusCode, 403);
  t.equal(wrongToken.json().message, 'Token de canal inválido');
  const noToken = peer.notification(channel);
  delete noToken['x-goog-channel-token'];
  t.equal((await notify(noToken)).statusCode, 403);
  const unknown = await notify({ ...peer.notification(channel), 'x-goog-channel-id': 'otro-canal' });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().message, 'Canal desconocido');
  t.equal((await notify({})).statusCode, 404, 'no channel at all');

  // About to expire: the next sync opens a new channel and stops the old one.
  await sql`update calendar.watch_channels set expires_at = now() + interval '1 hour' where id = ${channel.id}`;
  t.equal((await app.inject({ url: `${url}&refresh=true`, headers: { authorization } })).statusCode, 200);
  const renewed = await until('a new channel replaces the old', () => peer.openChannels(email).find((c: PeerChannel) => c.id !== channel.id));
  await until('the old channel is stopped', () => (channel.stopped ? true : undefined));
  await until('the new channel is stored', async () => (await sql`select 1 from calendar.watch_channels where id = ${renewed.id}`).length === 1);
  t.equal((await notify(peer.notification(channel))).statusCode, 404, 'the old channel is no longer ours');
  t.equal((await notify(peer.notification(renewed))).statusCode, 200);

  const gone = await app.inject({ method: 'POST', url: '/google/google-calendar/disconnect', headers: { authorization } });
  t.equal(gone.statusCode, 200);
  t.ok(renewed.stopped, 'disconnect stops the channel at Google');
  t.same(peer.openChannels(email), []);
  t.same(await sql`select id from calendar.watch_channels where user_id = ${userId}`, []);
  t.equal((await notify(peer.notification(renewed))).statusCode, 404);
});

t.test('a channel opening while the user disconnects is waited for and stopped: none is left at Google', async (t) => {
  const email = 'carrera@ejemplo.com';
  const { authorization } = await connectGoogle(app, peer, email);
  const url = `/google/events/calendar/primary?dateFrom=${inDays(0, 0).toISOString()}&dateTo=${inDays(20, 0).toISOString()}`;
  t.equal((await app.inject({ url, headers: { authorization } })).statusCode, 200);
  const first = await until('a channel is opened', () => peer.openChannels(email)[0]);
  await until('the channel is stored', async () => (await sql`select 1 from calendar.watch_channels where id = ${first.id}`).length === 1);

  // About to expire: the next sync renews it, and Google's answer to the renewal is held in flight.
  await sql`update calendar.watch_channels set expires_at = now() + interval '1 hour' where id = ${first.id}`;
  const release = peer.holdWatches();
  const watches = peer.apiRequests(`/calendars/${email}/events/watch`, 'POST').length;
  t.equal((await app.inject({ url: `${url}&refresh=true`, headers: { authorization } })).statusCode, 200);
  await until('the renewal reached Google', () => peer.apiRequests(`/calendars/${email}/events/watch`, 'POST').length > watches);

  const gone = app.inject({ method: 'POST', url: '/google/google-calendar/disconnect', headers: { authorization } });
  release();
  t.equal((await gone).statusCode, 200);
  const opened = peer.channelsOf(email);
  t.equal(opened.length, 2, 'the first channel and its renewal');
  t.same(peer.openChannels(email), [], 'both stopped at Google');
  t.same(await sql`select id from calendar.watch_channels where id = any(${opened.map((c) => c.id)})`, []);
});
