import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { buildServiceApp, oauthCookie, signToken, withSettings } from '@asistente/kit/testing';
import calendarService from '../src/app.js';
import { calendarWithPeer, DAY, inDays } from './calendar-app.js';
import { connectGoogle } from './connect.js';

const PUBLIC_URL = 'http://app.ejemplo.test';
const { peer, platform, app, sql } = await calendarWithPeer(t, PUBLIC_URL);

t.test('not configured: status says so and connect answers 503 asking the owner to ask the administrator', async (t) => {
  const bare = await buildServiceApp(t, calendarService, withSettings(platform, { GOOGLE_CLIENT_ID: undefined, GOOGLE_CLIENT_SECRET: undefined }));
  const { authorization } = signToken(bare);
  const status = await bare.inject({ url: '/google/google-calendar/status', headers: { authorization } });
  t.same(status.json(), { connected: false, email: null, configured: false, needsReconnect: false, message: null });
  const connect = await bare.inject({ url: '/google/redirect', headers: { authorization } });
  t.equal(connect.statusCode, 503);
  t.equal(connect.json().message, 'Google Calendar no está configurado en este servidor. Pide al administrador que configure la conexión con Google Calendar.');
  t.notMatch(connect.json().message, /GOOGLE_CLIENT_ID|GOOGLE_CLIENT_SECRET/, 'the setting names are for the administrator, not the owner');
  const calendars = await bare.inject({ url: '/google/google-calendar/calendars', headers: { authorization } });
  t.equal(calendars.statusCode, 503, 'calendars too');
});

t.test('connect: consent, sealed tokens, status, calendars', async (t) => {
  const { authorization, userId, landing } = await connectGoogle(app, peer, 'ana@ejemplo.com');
  t.equal(landing, `${PUBLIC_URL}/google-calendar?google=connected`, 'the browser goes back to the screen');
  const auth = peer.requests.find((r) => r.path === '/o/oauth2/v2/auth')!;
  t.equal(auth.query.access_type, 'offline');
  t.equal(auth.query.redirect_uri, `${PUBLIC_URL}/api/google/callback`);
  t.match(auth.query.scope, /auth\/calendar/);
  t.equal(auth.query.code_challenge_method, 'S256', 'PKCE on the consent');
  t.match(auth.query.code_challenge, /^[A-Za-z0-9_-]{43}$/);

  const status = await app.inject({ url: '/google/google-calendar/status', headers: { authorization } });
  t.same(status.json(), { connected: true, email: 'ana@ejemplo.com', configured: true, needsReconnect: false, message: null });

  const [row] = await sql<{ accessTokenEnc: string; refreshTokenEnc: string }[]>`
    select access_token_enc, refresh_token_enc from calendar.google_accounts where user_id = ${userId}`;
  t.match(row!.accessTokenEnc, /^v1:/, 'access token sealed');
  t.match(row!.refreshTokenEnc, /^v1:/, 'refresh token sealed');
  t.notMatch(JSON.stringify(row), /ya29\.|1\/\//, 'no token in clear');

  const calendars = await app.inject({ url: '/google/google-calendar/calendars', headers: { authorization } });
  t.same(calendars.json(), [
    { id: 'ana@ejemplo.com', summary: 'ana@ejemplo.com', backgroundColor: '#039be5', primary: true },
    { id: 'equipo-ana@ejemplo.com', summary: 'Equipo', backgroundColor: '#16a765', primary: false },
  ]);
  t.same((await app.inject({ url: '/google/calendars', headers: { authorization } })).json(), calendars.json(), 'the calendar screen reads the same list');
});

t.test('a forged, foreign or denied callback connects nobody', async (t) => {
  const user = signToken(app);
  const forged = await app.inject({ url: `/google/callback?code=4/abc&state=${'x'.repeat(40)}.${'y'.repeat(43)}` });
  t.equal(forged.statusCode, 302);
  t.equal(forged.headers.location, `${PUBLIC_URL}/google-calendar?google=invalid`);
  const missing = await app.inject({ url: '/google/callback?code=4/abc' });
  t.equal(missing.headers.location, `${PUBLIC_URL}/google-calendar?google=invalid`);

  peer.addAccount('denegado@ejemplo.com');
  peer.denyConsent = true;
  t.teardown(() => (peer.denyConsent = false));
  const redirect = await app.inject({ url: '/google/redirect', headers: { authorization: user.authorization } });
  const back = new URL((await fetch(redirect.json<{ url: string }>().url, { redirect: 'manual' })).headers.get('location')!);
  const denied = await app.inject({ url: `/google/callback${back.search}`, headers: { cookie: oauthCookie(redirect.headers['set-cookie']) } });
  t.equal(denied.headers.location, `${PUBLIC_URL}/google-calendar?google=denied`);
  const status = await app.inject({ url: '/google/google-calendar/status', headers: { authorization: user.authorization } });
  t.equal(status.json().connected, false);
});

t.test('events: create, read normalised, update, delete; Google first, then the mirror and the outbox', async (t) => {
  const { authorization, userId } = await connectGoogle(app, peer, 'luis@ejemplo.com');
  const base = '/google/google-calendar/calendars/primary/events';
  const start = inDays(3);
  const created = await app.inject({
    method: 'POST',
    url: base,
    headers: { authorization },
    payload: { title: 'Revisión trimestral', startTime: start.toISOString(), endTime: new Date(start.getTime() + 3_600_000).toISOString(), description: 'Cifras Q3', location: 'Sala 2' },
  });
  t.equal(created.statusCode, 201, created.body);
  const event = created.json();
  t.equal(event.title, 'Revisión trimestral');
  t.equal(event.source, 'google');
  t.equal(event.type, 'meeting');
  t.equal(event.start.dateTime, start.toISOString());
  t.ok(peer.event('luis@ejemplo.com', 'luis@ejemplo.com', event.id), 'the event is in Google');

  const month = await app.inject({ url: `/google/events/calendar/primary?dateFrom=${inDays(0, 0).toISOString()}&dateTo=${inDays(10, 0).toISOString()}`, headers: { authorization } });
  t.equal(month.statusCode, 200, month.body);
  t.same(Object.keys(month.json()[0]).sort(), [
    'allDay', 'attendees', 'calendarId', 'createdAt', 'description', 'endDate', 'endTime', 'id', 'isRecurring', 'location',
    'recurrencePattern', 'source', 'startDate', 'startTime', 'status', 'title', 'type', 'updatedAt',
  ]);
  t.match(month.json()[0], { id: event.id, title: 'Revisión trimestral', description: 'Cifras Q3', location: 'Sala 2', startDate: start.toISOString(), status: 'confirmed', isRecurring: false, recurrencePattern: null });

  const updated = await app.inject({
    method: 'PUT',
    url: `${base}/${event.id}`,
    headers: { authorization },
    payload: { title: 'Revisión Q3', startTime: start.toISOString(), endTime: new Date(start.getTime() + 7_200_000).toISOString() },
  });
  t.equal(updated.statusCode, 200, updated.body);
  t.equal(peer.event('luis@ejemplo.com', 'luis@ejemplo.com', event.id)!.summary, 'Revisión Q3');

  const deleted = await app.inject({ method: 'DELETE', url: `${base}/${event.id}`, headers: { authorization } });
  t.equal(deleted.statusCode, 204);
  t.notOk(peer.event('luis@ejemplo.com', 'luis@ejemplo.com', event.id), 'gone from Google');
  const after = await app.inject({ url: `/google/events/calendar/primary?dateFrom=${inDays(0, 0).toISOString()}&dateTo=${inDays(10, 0).toISOString()}`, headers: { authorization } });
  t.same(after.json(), [], 'and from the mirror');
  const missing = await app.inject({ method: 'DELETE', url: `${base}/no-existe`, headers: { authorization } });
  t.equal(missing.statusCode, 404);
  t.equal(missing.json().message, 'Evento no encontrado');

  const outbox = await sql<{ type: string; data: { eventId: string; source: string } }[]>`
    select type, data from calendar.outbox where user_id = ${userId} and type like 'calendar.%' order by occurred_at, type`;
  t.same(outbox.map((r) => r.type), ['calendar.event.created', 'calendar.event.updated', 'calendar.event.deleted']);
  t.same(
    outbox[0]!.data,
    { eventId: event.id, source: 'google', title: 'Revisión trimestral', startAt: start.toISOString(), endAt: new Date(start.getTime() + 3_600_000).toISOString(), allDay: false },
    'the title names the event in the activity feed; its times are for the webhooks',
  );
});

t.test('all-day events from the grid: Google gets date and the exclusive end, the view the last day', async (t) => {
  const email = 'todo-el-dia@ejemplo.com';
  const { authorization } = await connectGoogle(app, peer, email);
  const first = inDays(3, 0).toISOString().slice(0, 10);
  const last = inDays(4, 0).toISOString().slice(0, 10);
  const after = inDays(5, 0).toISOString().slice(0, 10);
  const created = await app.inject({ method: 'POST', url: '/events', headers: { authorization }, payload: { title: 'Feria', startTime: first, endTime: last, allDay: true } });
  t.equal(created.statusCode, 201, created.body);
  const id = created.json().id as string;
  t.match(peer.event(email, email, id), { start: { date: first }, end: { date: after } }, 'Google: the day after the last');
  t.match(created.json(), { allDay: true, type: 'reminder', startDate: first, endDate: last });

  const updated = await app.inject({ method: 'PUT', url: `/events/${id}`, headers: { authorization }, payload: { title: 'Feria', startTime: first, endTime: first, allDay: true } });
  t.equal(updated.statusCode, 200, updated.body);
  t.match(peer.event(email, email, id), { end: { date: last } }, 'one day: end is the next day');
  const month = await app.inject({ url: `/google/events/calendar/primary?dateFrom=${inDays(0, 0).toISOString()}&dateTo=${inDays(10, 0).toISOString()}`, headers: { authorization } });
  t.match(month.json(), [{ id, startDate: first, endDate: first, allDay: true }]);

  const timed = await app.inject({ method: 'PUT', url: `/events/${id}`, headers: { authorization }, payload: { title: 'Feria', startTime: inDays(3).toISOString(), endTime: inDays(3, 12).toISOString(), allDay: false } });
  t.equal(timed.statusCode, 200, timed.body);
  t.match(timed.json(), { allDay: false, type: 'meeting', startDate: inDays(3).toISOString() }, 'and back to a timed event');

  const reversed = await app.inject({ method: 'POST', url: '/events', headers: { authorization }, payload: { title: 'Mal', startTime: last, endTime: first, allDay: true } });
  t.equal(reversed.statusCode, 400);
  t.equal(reversed.json().message, 'La fecha de fin no puede ser anterior a la de inicio');
  const notADay = await app.inject({ method: 'POST', url: '/events', headers: { authorization }, payload: { title: 'Mal', startTime: inDays(3).toISOString(), endTime: last, allDay: true } });
  t.equal(notADay.json().message, 'La fecha de inicio debe ser una fecha (AAAA-MM-DD) en un evento de todo el día');
  t.equal((await app.inject({ method: 'DELETE', url: `/events/${id}`, headers: { authorization } })).statusCode, 204);
});

t.test('bad input: 400 in Spanish and nothing written to Google; unknown calendar 404', async (t) => {
  const { authorization } = await connectGoogle(app, peer, 'marta@ejemplo.com');
  const base = '/google/google-calendar/calendars/primary/events';
  const start = inDays(2).toISOString();
  const inserts = () => peer.apiRequests('/events', 'POST').length;
  const before = inserts();
  const cases: [object, string][] = [
    [{ title: 'X', startTime: start, endTime: inDays(1).toISOString() }, 'La fecha de fin debe ser posterior a la de inicio'],
    [{ title: 'X', startTime: start, endTime: start }, 'La fecha de fin debe ser posterior a la de inicio'],
    [{ title: '   ', startTime: start, endTime: inDays(3).toISOString() }, 'El título es requerido'],
    [{ startTime: start, endTime: inDays(3).toISOString() }, 'El título es requerido'],
    [{ title: 'X', startTime: 'mañana', endTime: inDays(3).toISOString() }, 'La fecha de inicio no es una fecha válida'],
    [{ title: 'X', startTime: start, endTime: '2026-13-45T99:00' }, 'La fecha de fin no es una fecha válida'],
    [{ title: 'X', endTime: start }, 'La fecha de inicio es requerida'],
  ];
  for (const [payload, message] of cases) {
    const response = await app.inject({ method: 'POST', url: base, headers: { authorization }, payload });
    t.equal(response.statusCode, 400, JSON.stringify(payload));
    t.equal(response.json().message, message);
  }
  const unknown = await app.inject({ method: 'POST', url: '/google/google-calendar/calendars/otro%40ejemplo.com/events', headers: { authorization }, payload: { title: 'X', startTime: start, endTime: inDays(3).toISOString() } });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().message, 'Calendario no encontrado');
  t.equal((await app.inject({ url: '/google/events/calendar/nada?dateFrom=2026-01-01&dateTo=2026-02-01', headers: { authorization } })).statusCode, 404);
  const listings = () => peer.apiRequests('/calendarList', 'GET').length;
  const listed = listings();
  for (let i = 0; i < 5; i++) await app.inject({ url: `/google/events/calendar/otro-${i}?dateFrom=2026-01-01&dateTo=2026-02-01`, headers: { authorization } });
  t.equal(listings(), listed, 'unknown ids in a burst do not each ask Google for the list again');
  t.equal(inserts(), before, 'nothing reached Google');
  const range = await app.inject({ url: '/google/events/calendar/primary?dateFrom=2026-02-01&dateTo=2026-01-01', headers: { authorization } });
  t.equal(range.statusCode, 400);
  t.equal(range.json().message, 'La fecha de fin debe ser posterior a la de inicio');
});

t.test('the mirror: incremental sync with syncToken, a 410 means a full resync, views refresh on demand', async (t) => {
  const email = 'sync@ejemplo.com';
  const { authorization } = await connectGoogle(app, peer, email);
  const day = inDays(5, 0).toISOString().slice(0, 10);
  const nextDay = inDays(6, 0).toISOString().slice(0, 10);
  peer.putEvent(email, email, { id: 'festivo', summary: 'Congreso', start: { date: day }, end: { date: nextDay } });
  peer.putEvent(email, email, { id: 'sin-titulo', start: { dateTime: inDays(4).toISOString() }, end: { dateTime: inDays(4, 11).toISOString() } });
  peer.putEvent(email, email, {
    id: 'semanal_20261201', summary: 'Daily', recurringEventId: 'semanal', recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
    start: { dateTime: inDays(6).toISOString() }, end: { dateTime: inDays(6, 11).toISOString() },
  });
  const url = `/google/events/calendar/primary?dateFrom=${inDays(0, 0).toISOString()}&dateTo=${inDays(20, 0).toISOString()}`;
  const first = await app.inject({ url, headers: { authorization } });
  const byId = new Map<string, Record<string, unknown>>(first.json().map((e: { id: string }) => [e.id, e]));
  t.match(byId.get('festivo'), { title: 'Congreso', type: 'reminder', allDay: true, startDate: day, endDate: day, startTime: day, endTime: day }, 'all-day: the exclusive end shown one day earlier');
  t.match(byId.get('sin-titulo'), { title: '(sin título)', type: 'meeting' });
  t.match(byId.get('semanal_20261201'), { isRecurring: true, recurrencePattern: 'RRULE:FREQ=WEEKLY;BYDAY=MO' });
  const firstList = peer.apiRequests(`/calendars/${email}/events`, 'GET').at(-1)!;
  t.notOk(firstList.query.syncToken, 'first listing is a full one');
  t.ok(firstList.query.timeMin);

  // Edited in Google: the mirror answers for a minute, then (or on force) asks only for the changes.
  peer.putEvent(email, email, { id: 'festivo', summary: 'Congreso anual' });
  peer.removeEvent(email, email, 'sin-titulo');
  const cached = await app.inject({ url, headers: { authorization } });
  t.equal(cached.json().find((e: { id: string }) => e.id === 'festivo').title, 'Congreso', 'fresh mirror answers without Google');
  const forced = await app.inject({ url: `${url}&refresh=true`, headers: { authorization } });
  const incremental = peer.apiRequests(`/calendars/${email}/events`, 'GET').at(-1)!;
  t.match(incremental.query.syncToken, /^sync-/, 'the forced refresh used the sync token');
  t.same(forced.json().map((e: { title: string }) => e.title).sort(), ['Congreso anual', 'Daily']);

  peer.invalidateSyncTokens();
  peer.putEvent(email, email, { id: 'nuevo', summary: 'Tras el 410', start: { dateTime: inDays(7).toISOString() }, end: { dateTime: inDays(7, 11).toISOString() } });
  const resynced = await app.inject({ url: `${url}&refresh=true`, headers: { authorization } });
  t.equal(resynced.statusCode, 200, resynced.body);
  const [gone, full] = peer.apiRequests(`/calendars/${email}/events`, 'GET').slice(-2);
  t.ok(gone!.query.syncToken, 'tried the expired token');
  t.notOk(full!.query.syncToken, 'then listed everything');
  t.same(resynced.json().map((e: { title: string }) => e.title).sort(), ['Congreso anual', 'Daily', 'Tras el 410']);

  const month = new Date(Date.now() + 5 * DAY);
  const firstTwo = await app.inject({ url: '/google/google-calendar/calendars/primary/events?maxResults=2', headers: { authorization } });
  t.same(firstTwo.json().map((e: { id: string }) => e.id), ['festivo', 'semanal_20261201'], 'the next two, from now on');
  const byMonth = await app.inject({ url: `/google/calendar/events/primary/${month.getUTCFullYear()}/${month.getUTCMonth() + 1}`, headers: { authorization } });
  t.equal(byMonth.statusCode, 200);
  t.ok(byMonth.json().some((e: { id: string }) => e.id === 'festivo'), 'the month route reads the mirror too');
  t.equal((await app.inject({ url: '/google/calendar/events/primary/2026/13', headers: { authorization } })).json().message, 'El mes debe ir de 1 a 12');
});

t.test('tokens: an expired access token refreshes by itself; a revoked grant asks to connect again', async (t) => {
  const email = 'tokens@ejemplo.com';
  const { authorization, userId } = await connectGoogle(app, peer, email);
  const [before] = await sql<{ accessTokenEnc: string }[]>`select access_token_enc from calendar.google_accounts where user_id = ${userId}`;
  peer.expireAccessTokens();
  const refreshes = () => peer.requests.filter((r) => r.path === '/token' && (r.body as { grant_type?: string }).grant_type === 'refresh_token').length;
  const refreshesBefore = refreshes();
  const listed = await app.inject({ url: '/google/google-calendar/calendars?refresh=true', headers: { authorization } });
  t.equal(listed.statusCode, 200, listed.body);
  t.equal(refreshes(), refreshesBefore + 1, 'one refresh');
  await t.resolves(async () => {
    for (const deadline = Date.now() + 5000; Date.now() < deadline; ) {
      const [row] = await sql<{ accessTokenEnc: string }[]>`select access_token_enc from calendar.google_accounts where user_id = ${userId}`;
      if (row!.accessTokenEnc !== before!.accessTokenEnc) return;
      await new Promise((r) => setImmediate(r));
    }
    throw new Error('the refreshed token was not stored');
  });

  peer.revokeGrant(email);
  peer.expireAccessTokens();
  const refused = await app.inject({ url: '/google/google-calendar/calendars?refresh=true', headers: { authorization } });
  t.equal(refused.statusCode, 409);
  t.equal(refused.json().message, 'Vuelve a conectar Google');
  const status = await app.inject({ url: '/google/google-calendar/status', headers: { authorization } });
  t.same(status.json(), { connected: false, email, configured: true, needsReconnect: true, message: 'Vuelve a conectar Google' });

  const again = await app.inject({ url: '/google/redirect', headers: { authorization } });
  t.equal(again.statusCode, 200, 'connecting again is offered');
});

t.test("Google's 429 and rate-limit 403 are retried with backoff", async (t) => {
  const { authorization } = await connectGoogle(app, peer, 'limite@ejemplo.com');
  peer.failNext(429, 403);
  const start = inDays(8);
  const created = await app.inject({
    method: 'POST',
    url: '/google/google-calendar/calendars/primary/events',
    headers: { authorization },
    payload: { title: 'Tras el límite', startTime: start.toISOString(), endTime: new Date(start.getTime() + 1_800_000).toISOString() },
  });
  t.equal(created.statusCode, 201, created.body);
  t.equal(peer.liveEvents('limite@ejemplo.com', 'limite@ejemplo.com').length, 1, 'created once');
});

t.test('Google Meet: conference data, invitations, list, join, end', async (t) => {
  const email = 'meet@ejemplo.com';
  const { authorization, userId } = await connectGoogle(app, peer, email);
  const start = new Date(Date.now() - 10 * 60_000);
  const created = await app.inject({
    method: 'POST',
    url: '/google/google-meet/create',
    headers: { authorization },
    payload: { title: 'Demo con cliente', startTime: start.toISOString(), endTime: new Date(start.getTime() + 3_600_000).toISOString(), attendees: ['cliente@empresa.com', ' Socio@Empresa.com'.trim()], description: 'Presentación' },
  });
  t.equal(created.statusCode, 201, created.body);
  const meeting = created.json();
  t.match(meeting.meetingUrl, /^https:\/\/meet\.google\.com\//);
  t.same(meeting.attendees, ['cliente@empresa.com', 'socio@empresa.com']);
  const insert = peer.apiRequests(`/calendars/${email}/events`, 'POST').at(-1)!;
  t.equal(insert.query.conferenceDataVersion, '1');
  t.equal(insert.query.sendUpdates, 'all', 'invitations sent');
  t.match(insert.body, { conferenceData: { createRequest: { conferenceSolutionKey: { type: 'hangoutsMeet' } } }, attendees: [{ email: 'cliente@empresa.com' }, { email: 'socio@empresa.com' }] });

  const list = await app.inject({ url: '/google/google-meet/meetings', headers: { authorization } });
  t.match(list.json(), { total: 1, page: 1, limit: 20, meetings: [{ id: meeting.id, title: 'Demo con cliente' }] });
  const join = await app.inject({ url: `/google/google-meet/meetings/${meeting.id}/join`, headers: { authorization } });
  t.same(join.json(), { url: meeting.meetingUrl });

  const other = signToken(app);
  t.equal((await app.inject({ url: `/google/google-meet/meetings/${meeting.id}/join`, headers: { authorization: other.authorization } })).statusCode, 404, "another user's meeting is not found");

  const ended = await app.inject({ method: 'POST', url: `/google/google-meet/meetings/${meeting.id}/end`, headers: { authorization } });
  t.equal(ended.statusCode, 200, ended.body);
  t.equal(ended.json().status, 'ended');
  const inGoogle = peer.event(email, email, meeting.eventId)!;
  t.ok(Date.parse((inGoogle.end as { dateTime: string }).dateTime) <= Date.now(), 'the event now ends at this minute');

  const bad = await app.inject({ method: 'POST', url: '/google/google-meet/create', headers: { authorization }, payload: { title: 'X', startTime: start.toISOString(), endTime: new Date(start.getTime() + 60_000).toISOString(), attendees: ['no-es-correo'] } });
  t.equal(bad.statusCode, 400);
  t.equal(bad.json().message, 'Correo de invitado inválido');

  const types = await sql<{ type: string; data: Record<string, unknown> }[]>`select type, data from calendar.outbox where user_id = ${userId} and type <> 'security.activity.recorded' order by type`;
  t.same(types.map((r) => r.type), ['calendar.event.created', 'calendar.event.updated', 'meet.meeting.created']);
  // One Meet is one thing the owner did: its calendar entry points at the meeting, which analytics counts once.
  t.same(types[0]!.data, { eventId: meeting.eventId, source: 'google', meetingId: meeting.id });
  t.same(types[2]!.data, { meetingId: meeting.id, title: 'Demo con cliente' });
});

t.test('agenda across calendars and free slots for the assistant', async (t) => {
  const email = 'agenda@ejemplo.com';
  const { authorization } = await connectGoogle(app, peer, email);
  // Next Monday in Madrid, busy 10:00-11:30 local (09:00-10:30 UTC in winter, 08:00-09:30 in summer).
  const monday = new Date(Date.now() + 7 * DAY);
  monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7));
  const ymd = monday.toISOString().slice(0, 10);
  const offset = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Madrid', timeZoneName: 'shortOffset' }).formatToParts(monday).find((p) => p.type === 'timeZoneName')!.value;
  const hours = offset === 'GMT+2' ? 2 : 1;
  const local = (h: number, m = 0) => new Date(Date.parse(`${ymd}T00:00:00Z`) + ((h - hours) * 60 + m) * 60_000).toISOString();
  peer.putEvent(email, email, { id: 'ocupado', summary: 'Cliente', start: { dateTime: local(10) }, end: { dateTime: local(11, 30) } });
  peer.putEvent(email, `equipo-${email}`, { id: 'equipo', summary: 'Del equipo', start: { dateTime: local(15) }, end: { dateTime: local(16) } });
  peer.putEvent(email, email, { id: 'libre', summary: 'Recordatorio', transparency: 'transparent', start: { dateTime: local(12) }, end: { dateTime: local(13) } });

  const agenda = await app.inject({ url: `/events?dateFrom=${ymd}&dateTo=${ymd}T23:59:59Z&refresh=true`, headers: { authorization } });
  t.equal(agenda.statusCode, 200, agenda.body);
  t.same(agenda.json().map((e: { id: string }) => e.id).sort(), ['equipo', 'libre', 'ocupado'], 'every mirrored calendar');

  const slots = await app.inject({ url: `/events/free-slots?dateFrom=${ymd}&dateTo=${ymd}T23:59:59Z&durationMinutes=60`, headers: { authorization } });
  t.equal(slots.statusCode, 200, slots.body);
  t.same(slots.json().map((s: { start: string }) => s.start), [local(9), local(11, 30), local(12, 30), local(13, 30), local(14, 30), local(15, 30), local(16, 30)],
    'working hours 09:00-18:00 Madrid, minus the busy meeting; a transparent event and a shared calendar do not block');
  t.same(slots.json()[0], { start: local(9), end: local(10) });

  // Outlook through the teams service (a stand-in answers its documented route): a timed event blocks,
  // an all-day or cancelled one does not; a failing teams service leaves the Google answer as it was.
  const outlookQueries: string[] = [];
  // A whole MicrosoftCalendarEvent, as teams answers GET /microsoft/events (the calendar service checks the shape).
  const outlook = (over: Record<string, unknown>) => ({
    id: 'o',
    title: 'Outlook',
    description: '',
    startDate: ymd,
    endDate: ymd,
    startTime: local(13, 30),
    endTime: local(14, 30),
    allDay: false,
    location: '',
    attendees: [],
    type: 'meeting',
    status: 'confirmed',
    createdAt: null,
    updatedAt: null,
    source: 'msteams',
    isRecurring: false,
    recurrencePattern: null,
    joinUrl: null,
    calendarId: 'cal-1',
    ...over,
  });
  let teamsAnswer: { statusCode: number; body: string } = {
    statusCode: 200,
    body: JSON.stringify([outlook({}), outlook({ id: 'a', allDay: true, startTime: ymd, endTime: ymd }), outlook({ id: 'c', status: 'cancelled', startTime: local(9), endTime: local(10) })]),
  };
  // Teams lists one Outlook calendar (free slots ask each calendar's events by its id), or answers as its events do.
  platform.services.attachInProcess(async (request) => {
    if (request.url === '/api/microsoft/calendars') {
      return teamsAnswer.statusCode === 200 ? { statusCode: 200, body: JSON.stringify([{ id: 'cal-1', name: 'Calendario', color: '#0078d4' }]) } : teamsAnswer;
    }
    if (!request.url.startsWith('/api/microsoft/events?')) return app.inject(request);
    outlookQueries.push(request.url);
    return teamsAnswer;
  });
  t.teardown(() => platform.services.attachInProcess((request) => app.inject(request)));
  const withOutlook = await app.inject({ url: `/events/free-slots?dateFrom=${ymd}&dateTo=${ymd}T23:59:59Z&durationMinutes=60`, headers: { authorization } });
  t.same(withOutlook.json().map((s: { start: string }) => s.start), [local(9), local(11, 30), local(12, 30), local(14, 30), local(15, 30), local(16, 30)], 'the Outlook meeting is busy too');
  t.match(outlookQueries[0], /dateFrom=.*&dateTo=.*&calendarId=cal-1/, 'asked for the same range, of the listed calendar');
  teamsAnswer = { statusCode: 409, body: JSON.stringify({ message: 'Conecta Microsoft' }) };
  const noOutlook = await app.inject({ url: `/events/free-slots?dateFrom=${ymd}&dateTo=${ymd}T23:59:59Z&durationMinutes=60`, headers: { authorization } });
  t.same(noOutlook.json(), slots.json(), 'without a Microsoft connection, Google alone');
  teamsAnswer = { statusCode: 200, body: '{"no":"es una lista"}' };
  t.same((await app.inject({ url: `/events/free-slots?dateFrom=${ymd}&dateTo=${ymd}T23:59:59Z&durationMinutes=60`, headers: { authorization } })).json(), slots.json(), 'a malformed answer is ignored');

  const saturday = new Date(Date.parse(`${ymd}T00:00:00Z`) + 5 * DAY).toISOString().slice(0, 10);
  const weekend = await app.inject({ url: `/events/free-slots?dateFrom=${saturday}&dateTo=${saturday}T23:59:59Z&durationMinutes=30`, headers: { authorization } });
  t.same(weekend.json(), [], 'no weekend slots');
  const custom = await app.inject({ url: `/events/free-slots?dateFrom=${ymd}&dateTo=${ymd}T23:59:59Z&durationMinutes=120&workStart=16:00&workEnd=20:00`, headers: { authorization } });
  t.same(custom.json().map((s: { start: string }) => s.start), [local(16), local(18)], 'working hours configurable');
  const bad = await app.inject({ url: `/events/free-slots?dateFrom=${ymd}&dateTo=${ymd}T23:59:59Z&durationMinutes=30&timeZone=Marte/Olympus`, headers: { authorization } });
  t.equal(bad.statusCode, 400);
  t.equal(bad.json().message, 'Zona horaria desconocida: Marte/Olympus');
  const noDates = await app.inject({ url: '/events/free-slots?durationMinutes=30', headers: { authorization } });
  t.equal(noDates.statusCode, 400);
  t.equal(noDates.json().message, 'Indica dateFrom (fecha de inicio)');
});

t.test('disconnect revokes at Google and forgets the account and its mirror', async (t) => {
  const email = 'adios@ejemplo.com';
  const { authorization, userId } = await connectGoogle(app, peer, email);
  const response = await app.inject({ method: 'POST', url: '/google/google-calendar/disconnect', headers: { authorization } });
  t.same(response.json(), { success: true });
  t.equal(peer.requests.filter((r) => r.path === '/revoke').length > 0, true, 'revoked at Google');
  const status = await app.inject({ url: '/google/google-calendar/status', headers: { authorization } });
  t.same(status.json(), { connected: false, email: null, configured: true, needsReconnect: false, message: null });
  const [mirrored] = await sql<{ count: number }[]>`select count(*)::int as count from calendar.calendars where user_id = ${userId}`;
  t.equal(mirrored!.count, 0);
  const calendars = await app.inject({ url: '/google/google-calendar/calendars', headers: { authorization } });
  t.equal(calendars.statusCode, 409);
  t.equal((await app.inject({ method: 'POST', url: '/google/google-calendar/disconnect', headers: { authorization } })).statusCode, 200, 'twice is fine');
  // The security log's lines went out through the outbox with the changes; a second disconnect changed nothing, so logged nothing.
  const lines = await sql<{ data: { activity: string; detail: object } }[]>`
    select data from calendar.outbox where user_id = ${userId} and type = 'security.activity.recorded' order by occurred_at, id`;
  t.same(
    lines.map((l) => [l.data.activity, l.data.detail]),
    [
      ['provider.connected', { provider: 'google', account: email }],
      ['provider.disconnected', { provider: 'google', account: email }],
    ],
  );
  t.notMatch(JSON.stringify(lines), /token|ya29|refresh/i, 'no token in the log lines');
});

t.test('two processes (two plugin instances, each with its own view cache) never serve each other a stale month', async (t) => {
  const other = await buildServiceApp(t, calendarService, platform);
  const { authorization } = await connectGoogle(app, peer, 'replicas@ejemplo.com');
  const url = `/google/events/calendar/primary?dateFrom=${inDays(0, 0).toISOString()}&dateTo=${inDays(20, 0).toISOString()}`;
  const titles = async (instance: typeof app) => (await instance.inject({ url, headers: { authorization } })).json().map((e: { title: string }) => e.title);
  t.same(await titles(app), [], 'empty month, now cached by the first instance');
  t.same(await titles(app), []);
  const start = inDays(2);
  const created = await other.inject({
    method: 'POST',
    url: '/events',
    headers: { authorization },
    payload: { title: 'Escrita en la otra réplica', startTime: start.toISOString(), endTime: new Date(start.getTime() + 3_600_000).toISOString() },
  });
  t.equal(created.statusCode, 201, created.body);
  t.same(await titles(app), ['Escrita en la otra réplica'], 'the first instance sees the write at once');
  await other.inject({ method: 'DELETE', url: `/events/${created.json().id}`, headers: { authorization } });
  t.same(await titles(app), [], 'and the delete');

  // The browser revalidates a month it holds: 304 without a body while the mirror has not changed.
  const held = await app.inject({ url, headers: { authorization } });
  const etag = held.headers.etag as string;
  t.match(etag, /^W\/"[\w-]+"$/);
  const zipped = await app.inject({ url, headers: { authorization, 'accept-encoding': 'gzip, deflate, br' } });
  t.equal(zipped.headers['content-encoding'], 'gzip', 'gzipped for a client that takes it');
  t.same(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8')), held.json());
  const again = await app.inject({ url, headers: { authorization, 'if-none-match': etag } });
  t.equal(again.statusCode, 304);
  t.equal(again.body, '');
  await other.inject({ method: 'POST', url: '/events', headers: { authorization }, payload: { title: 'Otra', startTime: start.toISOString(), endTime: new Date(start.getTime() + 3_600_000).toISOString() } });
  const changed = await app.inject({ url, headers: { authorization, 'if-none-match': etag } });
  t.equal(changed.statusCode, 200, 'a change is a new tag');
  t.not(changed.headers.etag, etag);
  t.same(peer.apiRequests('/watch'), [], 'no push channels while PUBLIC_URL is not https (Google refuses them)');
});
