import t from 'tap';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import calendarService from '../src/app.js';
import { connectGoogle } from './connect.js';
import { startRadicale } from './fixtures/radicale.js';
import { GooglePeer } from './google-peer.js';

const ana = { user: 'ana', password: 'clave-de-aplicacion' };
const radicale = await startRadicale([ana]);
t.teardown(() => radicale.stop());
const family = await radicale.makeCalendar(ana, 'familia', 'Familia', '#E11D48FF');
const peer = await new GooglePeer().start();
t.teardown(() => peer.stop());
const platform = await createTestPlatform(t, { config: { ...peer.config(), PUBLIC_URL: 'http://app.ejemplo.test', ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const app = await buildServiceApp(t, calendarService, platform);

t.test('the agenda merges Google and CalDAV, each event with its source; writes go to the calendar named', async (t) => {
  const { authorization } = await connectGoogle(app, peer, 'ana@ejemplo.com');
  const headers = { authorization };
  peer.putEvent('ana@ejemplo.com', 'ana@ejemplo.com', {
    id: 'g1', status: 'confirmed', summary: 'Reunión en Google',
    start: { dateTime: '2026-11-10T09:00:00Z' }, end: { dateTime: '2026-11-10T10:00:00Z' },
  });
  const put = await radicale.request(ana, 'PUT', '/ana/familia/cumple.ics', [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Prueba//ES',
    'BEGIN:VEVENT', 'UID:cumple', 'DTSTAMP:20261101T000000Z', 'DTSTART;VALUE=DATE:20261112', 'DTEND;VALUE=DATE:20261113', 'SUMMARY:Cumpleaños de Lucía', 'END:VEVENT',
    'END:VCALENDAR', '',
  ].join('\r\n'), { 'content-type': 'text/calendar' });
  t.equal(put.status, 201);
  const connected = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: radicale.url, username: 'ana', password: ana.password } });
  t.equal(connected.statusCode, 200, connected.body);

  const range = 'dateFrom=2026-11-01T00:00:00Z&dateTo=2026-12-01T00:00:00Z&refresh=true';
  const agenda = await app.inject({ url: `/events?${range}`, headers });
  t.equal(agenda.statusCode, 200, agenda.body);
  t.same(
    agenda.json<{ title: string; source: string; startDate: string; endDate: string }[]>().map((e) => [e.title, e.source, e.startDate, e.endDate]),
    [
      ['Reunión en Google', 'google', '2026-11-10T09:00:00.000Z', '2026-11-10T10:00:00.000Z'],
      ['Cumpleaños de Lucía', 'caldav', '2026-11-12', '2026-11-12'],
    ],
    'both providers, by start; the all-day end is its last day for both',
  );
  const onlyGoogle = await app.inject({ url: `/events?${range}&calendarId=primary`, headers });
  t.same(onlyGoogle.json<{ source: string }[]>().map((e) => e.source), ['google'], "calendarId=primary is still Google's");

  const toGoogle = await app.inject({ method: 'POST', url: '/events', headers, payload: { title: 'Para Google', startTime: '2026-11-11T09:00:00Z', endTime: '2026-11-11T10:00:00Z' } });
  t.equal(toGoogle.json().source, 'google', 'no calendarId: Google primary, as before');
  t.ok(peer.liveEvents('ana@ejemplo.com', 'ana@ejemplo.com').some((e) => e.summary === 'Para Google'));
  const toCaldav = await app.inject({ method: 'POST', url: '/events', headers, payload: { title: 'Para la familia', startTime: '2026-11-11T18:00:00Z', endTime: '2026-11-11T19:00:00Z', calendarId: family } });
  t.equal(toCaldav.statusCode, 201);
  t.equal(toCaldav.json().source, 'caldav');
  t.equal((await radicale.request(ana, 'GET', `/ana/familia/${toCaldav.json().id}.ics`)).status, 200, 'on Radicale');
  t.notOk(peer.liveEvents('ana@ejemplo.com', 'ana@ejemplo.com').some((e) => e.summary === 'Para la familia'), 'not on Google');
});

t.test('free slots avoid CalDAV events as they avoid Google ones', async (t) => {
  const { authorization } = await connectGoogle(app, peer, 'luis@ejemplo.com');
  const headers = { authorization };
  t.equal((await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: radicale.url, username: 'ana', password: ana.password } })).statusCode, 200);
  // A working Wednesday at least two days ahead (slots are never in the past), 09:00-13:00 UTC.
  const day = new Date(Date.now() + 2 * 86_400_000);
  while (day.getUTCDay() !== 3) day.setUTCDate(day.getUTCDate() + 1);
  const date = day.toISOString().slice(0, 10);
  const compact = date.replace(/-/g, '');
  peer.putEvent('luis@ejemplo.com', 'luis@ejemplo.com', { id: 'g-slot', summary: 'Google', start: { dateTime: `${date}T09:00:00Z` }, end: { dateTime: `${date}T10:00:00Z` } });
  const put = await radicale.request(ana, 'PUT', '/ana/familia/ocupado.ics', [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Prueba//ES',
    'BEGIN:VEVENT', 'UID:ocupado', 'DTSTAMP:20261101T000000Z', `DTSTART:${compact}T110000Z`, `DTEND:${compact}T120000Z`, 'SUMMARY:Médico', 'END:VEVENT',
    'END:VCALENDAR', '',
  ].join('\r\n'), { 'content-type': 'text/calendar' });
  t.equal(put.status, 201);
  await app.inject({ url: `/events?dateFrom=${date}T00:00:00Z&dateTo=${date}T23:59:00Z&refresh=true`, headers });
  const slots = await app.inject({ url: `/events/free-slots?dateFrom=${date}T00:00:00Z&dateTo=${date}T23:59:00Z&durationMinutes=60&workStart=09:00&workEnd=13:00&timeZone=UTC`, headers });
  t.equal(slots.statusCode, 200, slots.body);
  const starts = slots.json<{ start: string; end: string }[]>().map((s) => s.start.slice(11, 16));
  t.ok(starts.includes('10:00') && starts.includes('12:00'), `free at 10:00 and 12:00 (${starts.join(', ')})`);
  t.notOk(starts.some((s) => s === '09:00' || s === '11:00'), 'busy with Google at 09:00 and with CalDAV at 11:00');
});
