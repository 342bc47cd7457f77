import t from 'tap';
import { signToken } from '@asistente/kit/testing';
import { calendarObject, calendarWithRadicale, VTIMEZONE_MADRID } from './fixtures/caldav-service.js';

type Listed = { id: string; title: string; startDate: string; endDate: string; source: string; allDay: boolean; isRecurring: boolean; calendarId: string };
const { ana, radicale, work, platform, app, sql, userId, headers, put, events } = await calendarWithRadicale<Listed>(t);
const RANGE = 'dateFrom=2026-11-01T00:00:00Z&dateTo=2026-12-01T00:00:00Z';

t.test('a wrong password is a Spanish 400 and nothing is stored', async (t) => {
  const wrong = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: radicale.url, username: 'ana', password: 'mala' } });
  t.equal(wrong.statusCode, 400);
  t.equal(wrong.json().code, 'CALDAV_AUTH_FAILED');
  t.equal(wrong.json().message, 'El servidor CalDAV rechazó el usuario o la contraseña de aplicación');
  t.same((await app.inject({ url: '/caldav/status', headers })).json(), { connected: false, url: null, username: null });
  const [counted] = await sql<{ count: number }[]>`select count(*)::int as count from calendar.caldav_accounts where user_id = ${userId}`;
  const count = counted?.count;
  t.equal(count, 0, 'no account row');
});

t.test('an unreachable or internal server is a Spanish 400', async (t) => {
  const closed = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: `http://127.0.0.1:${radicale.port + 1}/`, username: 'ana', password: ana.password } });
  t.equal(closed.statusCode, 400);
  t.equal(closed.json().code, 'CALDAV_UNREACHABLE');
  t.match(closed.json().message, /No se pudo conectar con el servidor CalDAV/);
  const internal = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: 'https://10.1.2.3/dav', username: 'ana', password: 'x' } });
  t.equal(internal.statusCode, 400);
  t.equal(internal.json().code, 'HOST_NOT_ALLOWED', 'the kit host guard refuses a private address not allowed');
  const bad = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: radicale.url, username: 'ana' } });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().message, /contraseña de aplicación/);
});

t.test('connect: calendars with name and colour, status, the password sealed', async (t) => {
  const connected = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: radicale.url, username: 'ana', password: ana.password } });
  t.equal(connected.statusCode, 200, connected.body);
  t.same(connected.json(), { connected: true, calendars: [{ id: work, name: 'Trabajo', color: '#16a765' }] });
  t.notMatch(connected.body, new RegExp(ana.password), 'no password in the answer');
  t.same((await app.inject({ url: '/caldav/status', headers })).json(), { connected: true, url: radicale.url, username: 'ana' });
  t.same((await app.inject({ url: '/caldav/calendars', headers })).json(), [{ id: work, name: 'Trabajo', color: '#16a765' }]);
  const [row] = await sql<{ passwordEnc: string }[]>`select password_enc from calendar.caldav_accounts where user_id = ${userId}`;
  t.match(row!.passwordEnc, /^v1:/, 'sealed with the key ring');
  t.notMatch(row!.passwordEnc, new RegExp(ana.password));
  const other = signToken(app);
  t.same((await app.inject({ url: '/caldav/status', headers: { authorization: other.authorization } })).json(), { connected: false, url: null, username: null }, 'another user sees nothing');
});

t.test('events: a series expanded in the range, a zoned time and an all-day event, beside the source', async (t) => {
  await put('serie', calendarObject(
    ...VTIMEZONE_MADRID,
    'BEGIN:VEVENT', 'UID:serie-semanal', 'DTSTAMP:20261101T000000Z', 'DTSTART;TZID=Europe/Madrid:20261102T093000', 'DTEND;TZID=Europe/Madrid:20261102T100000',
    'RRULE:FREQ=WEEKLY;COUNT=8', 'EXDATE;TZID=Europe/Madrid:20261116T093000', 'SUMMARY:Reunión semanal', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:serie-semanal', 'DTSTAMP:20261101T000000Z', 'RECURRENCE-ID;TZID=Europe/Madrid:20261109T093000',
    'DTSTART;TZID=Europe/Madrid:20261109T120000', 'DTEND;TZID=Europe/Madrid:20261109T123000', 'SUMMARY:Reunión semanal (movida)', 'END:VEVENT',
  ));
  // A zone the object names but does not define (servers send bare IANA names): New York, after its DST end.
  await put('nueva-york', calendarObject('BEGIN:VEVENT', 'UID:llamada-ny', 'DTSTAMP:20261101T000000Z', 'DTSTART;TZID=America/New_York:20261103T090000', 'DTEND;TZID=America/New_York:20261103T100000', 'SUMMARY:Llamada con Nueva York', 'END:VEVENT'));
  await put('vacaciones', calendarObject('BEGIN:VEVENT', 'UID:vacaciones', 'DTSTAMP:20261101T000000Z', 'DTSTART;VALUE=DATE:20261124', 'DTEND;VALUE=DATE:20261127', 'SUMMARY:Vacaciones', 'END:VEVENT'));

  const listed = await events(`${RANGE}&refresh=true`);
  t.ok(listed.every((e) => e.source === 'caldav' && e.calendarId === work), 'source caldav, the calendar URL as calendarId');
  t.same(
    listed.map((e) => [e.title, e.startDate, e.endDate]),
    [
      ['Reunión semanal', '2026-11-02T08:30:00.000Z', '2026-11-02T09:00:00.000Z'],
      ['Llamada con Nueva York', '2026-11-03T14:00:00.000Z', '2026-11-03T15:00:00.000Z'],
      ['Reunión semanal (movida)', '2026-11-09T11:00:00.000Z', '2026-11-09T11:30:00.000Z'],
      ['Reunión semanal', '2026-11-23T08:30:00.000Z', '2026-11-23T09:00:00.000Z'],
      ['Vacaciones', '2026-11-24', '2026-11-26'],
      ['Reunión semanal', '2026-11-30T08:30:00.000Z', '2026-11-30T09:00:00.000Z'],
    ],
    'Madrid 09:30 is 08:30Z in winter; the excluded week is gone; the moved one at its new time; all-day ends on its last day',
  );
  t.ok(listed.filter((e) => e.title.startsWith('Reunión')).every((e) => e.isRecurring));
  t.equal(listed.find((e) => e.title === 'Vacaciones')!.allDay, true);
  const december = await events('dateFrom=2026-12-01T00:00:00Z&dateTo=2026-12-31T00:00:00Z');
  t.same(december.map((e) => e.startDate), ['2026-12-07T08:30:00.000Z', '2026-12-14T08:30:00.000Z', '2026-12-21T08:30:00.000Z'], 'only the occurrences in the asked range, the series ending at COUNT=8');
  const one = await events(`${RANGE}&calendarId=${encodeURIComponent(work)}`);
  t.equal(one.length, listed.length, 'calendarId narrows to the CalDAV calendar');
});

t.test('create, move and delete go to the server with their etags; a stale etag is a Spanish 409', async (t) => {
  const created = await app.inject({
    method: 'POST', url: '/events', headers,
    payload: { title: 'Revisión de presupuesto', startTime: '2026-11-20T15:00:00.000Z', endTime: '2026-11-20T16:00:00.000Z', location: 'Oficina', calendarId: work },
  });
  t.equal(created.statusCode, 201, created.body);
  const event = created.json<{ id: string; source: string; startDate: string }>();
  t.equal(event.source, 'caldav');
  const path = `/ana/trabajo/${event.id}.ics`;
  const stored = await radicale.request(ana, 'GET', path);
  t.equal(stored.status, 200, 'the object is on Radicale');
  const text = await stored.text();
  t.match(text, /SUMMARY:Revisión de presupuesto/);
  t.match(text, /DTSTART:20261120T150000Z/);

  const moved = await app.inject({
    method: 'PUT', url: `/events/${event.id}?calendarId=${encodeURIComponent(work)}`, headers,
    payload: { title: 'Revisión de presupuesto', startTime: '2026-11-21T09:00:00.000Z', endTime: '2026-11-21T10:30:00.000Z' },
  });
  t.equal(moved.statusCode, 200, moved.body);
  t.equal(moved.json().startDate, '2026-11-21T09:00:00.000Z');
  const after = await (await radicale.request(ana, 'GET', path)).text();
  t.match(after, /DTSTART:20261121T090000Z/, 'moved on the server');
  t.match(after, /LOCATION:Oficina/, 'what the form did not touch is kept');
  t.match(after, /SEQUENCE:1/);
  t.ok((await events(RANGE)).some((e) => e.id === event.id && e.startDate === '2026-11-21T09:00:00.000Z'), 'the agenda shows it moved');

  // Someone changes it in their phone meanwhile: our etag is stale, the server refuses, nothing is overwritten.
  await put(event.id, after.replace('Revisión de presupuesto', 'Cambiado en el móvil'));
  const conflict = await app.inject({
    method: 'PUT', url: `/events/${event.id}?calendarId=${encodeURIComponent(work)}`, headers,
    payload: { title: 'Mi versión', startTime: '2026-11-22T09:00:00.000Z', endTime: '2026-11-22T10:00:00.000Z' },
  });
  t.equal(conflict.statusCode, 409);
  t.equal(conflict.json().code, 'CALDAV_CONFLICT');
  t.match(conflict.json().message, /cambió en el servidor CalDAV/);
  t.match(await (await radicale.request(ana, 'GET', path)).text(), /Cambiado en el móvil/, 'the phone change survives');
  const staleDelete = await app.inject({ method: 'DELETE', url: `/events/${event.id}?calendarId=${encodeURIComponent(work)}`, headers });
  t.equal(staleDelete.statusCode, 409, 'a delete with a stale etag is refused too');

  // After a refresh the mirror has the server's version and etag: the delete goes through.
  t.ok((await events(`${RANGE}&refresh=true`)).some((e) => e.title === 'Cambiado en el móvil'));
  const deleted = await app.inject({ method: 'DELETE', url: `/events/${event.id}?calendarId=${encodeURIComponent(work)}`, headers });
  t.equal(deleted.statusCode, 204);
  t.equal((await radicale.request(ana, 'GET', path)).status, 404, 'gone from Radicale');
  t.notOk((await events(RANGE)).some((e) => e.id === event.id), 'gone from the agenda');

  const told = await sql<{ type: string }[]>`
    select type from calendar.outbox where user_id = ${userId} and type like 'calendar.event.%' and data->>'source' = 'caldav' order by seq`;
  t.same(
    told.map((r) => r.type),
    ['calendar.event.created', 'calendar.event.updated', 'calendar.event.updated', 'calendar.event.deleted'],
    "created, updated and deleted written to the outbox, the phone's change (found by the refresh) between",
  );
});

t.test('deleting one occurrence of a series leaves the rest', async (t) => {
  const occurrence = (await events(RANGE)).find((e) => e.startDate === '2026-11-23T08:30:00.000Z')!;
  const removed = await app.inject({ method: 'DELETE', url: `/events/${encodeURIComponent(occurrence.id)}?calendarId=${encodeURIComponent(work)}`, headers });
  t.equal(removed.statusCode, 204);
  const left = (await events(`${RANGE}&refresh=true`)).filter((e) => e.title.startsWith('Reunión')).map((e) => e.startDate);
  t.same(left, ['2026-11-02T08:30:00.000Z', '2026-11-09T11:00:00.000Z', '2026-11-30T08:30:00.000Z']);
  t.match(await (await radicale.request(ana, 'GET', '/ana/trabajo/serie.ics')).text(), /EXDATE/, 'an EXDATE on the server');
});

t.test('incremental sync: changes made directly on Radicale arrive with refresh=true', async (t) => {
  const [before] = await sql<{ syncToken: string }[]>`select sync_token from calendar.caldav_calendars where user_id = ${userId}`;
  await put('desde-fuera', calendarObject('BEGIN:VEVENT', 'UID:desde-fuera', 'DTSTAMP:20261101T000000Z', 'DTSTART:20261118T100000Z', 'DTEND:20261118T110000Z', 'SUMMARY:Creado en otra app', 'END:VEVENT'));
  t.notOk((await events(RANGE)).some((e) => e.id === 'desde-fuera'), 'a fresh mirror answers without asking the server');
  t.ok((await events(`${RANGE}&refresh=true`)).some((e) => e.id === 'desde-fuera' && e.title === 'Creado en otra app'), 'refresh=true brings it');
  const [after] = await sql<{ syncToken: string }[]>`select sync_token from calendar.caldav_calendars where user_id = ${userId}`;
  t.not(after!.syncToken, before!.syncToken, 'the sync-collection token moved on');
  t.equal((await radicale.request(ana, 'DELETE', '/ana/trabajo/desde-fuera.ics')).status, 200);
  t.notOk((await events(`${RANGE}&refresh=true`)).some((e) => e.id === 'desde-fuera'), 'a removal arrives too');
});

t.test('disconnect forgets the account, its calendars and objects', async (t) => {
  const done = await app.inject({ method: 'POST', url: '/caldav/disconnect', headers });
  t.same(done.json(), { success: true });
  t.same((await app.inject({ url: '/caldav/status', headers })).json(), { connected: false, url: null, username: null });
  const [counted] = await sql<{ count: number }[]>`select count(*)::int as count from calendar.caldav_objects where user_id = ${userId}`;
  const count = counted?.count;
  t.equal(count, 0);
  const agenda = await app.inject({ url: `/events?${RANGE}`, headers });
  t.equal(agenda.statusCode, 503, 'with no calendar at all, the agenda answers as before (Google not configured)');
});

t.test('every request sent to the CalDAV server is counted by outcome; one the host guard refused is not', async (t) => {
  const count = async (outcome: string) => {
    const series = `asistente_provider_calls_total{provider="caldav",outcome="${outcome}",process="test"} `;
    const line = (await platform.metrics.text()).split('\n').find((l) => l.startsWith(series));
    return line === undefined ? 0 : Number(line.slice(series.length));
  };
  const OUTCOMES = ['ok', 'rate_limited', 'unauthorized', 'client_error', 'server_error', 'network_error'];
  const all = async () => (await Promise.all(OUTCOMES.map(count))).reduce((a, b) => a + b, 0);
  t.ok((await count('ok')) > 0, 'discovery, reads and writes answered');
  t.ok((await count('unauthorized')) >= 1, 'the wrong password: 401');
  t.ok((await count('network_error')) >= 1, 'the closed port: nothing answered');
  t.equal((await count('server_error')) + (await count('rate_limited')), 0, 'Radicale never failed nor limited');
  const before = await all();
  const internal = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: 'https://10.1.2.3/dav', username: 'ana', password: 'x' } });
  t.equal(internal.statusCode, 400);
  t.equal(await all(), before, 'the internal address was refused before any request: nothing counted');
  t.notMatch(await platform.metrics.text(), /provider="caldav"[^}]*(10\.1\.2\.3|127\.0\.0\.1|ana)/, 'neither the server nor the user in a label');
});
