// What another app changes on a CalDAV server becomes calendar.event.* in the outbox at the next sync, as the product's own writes do: nothing for a calendar's first sync, nothing twice for the product's own write.
import t from 'tap';
import { createCalendarObject, deleteCalendarObject, getBasicAuthHeaders, updateCalendarObject } from 'tsdav';
import { calendarObject, calendarWithRadicale } from './fixtures/caldav-service.js';

const RANGE = 'dateFrom=2026-11-01T00:00:00Z&dateTo=2026-12-01T00:00:00Z';

const { ana, radicale, work, app, sql, userId, headers, events } = await calendarWithRadicale<{ id: string; title: string }>(t);
const dav = { headers: getBasicAuthHeaders({ username: ana.user, password: ana.password }) };
const elsewhere = (title: string) =>
  calendarObject('BEGIN:VEVENT', 'UID:otra-app', 'DTSTAMP:20261101T000000Z', 'DTSTART:20261118T100000Z', 'DTEND:20261118T110000Z', `SUMMARY:${title}`, 'END:VEVENT');

/** The CalDAV entries the outbox holds for the user, in order. */
const told = async () => {
  const rows = await sql<{ type: string; eventId: string; title: string | null }[]>`
    select type, data->>'eventId' as event_id, data->>'title' as title from calendar.outbox
    where user_id = ${userId} and type like 'calendar.event.%' and data->>'source' = 'caldav' order by seq`;
  return rows.map((r) => [r.type, r.eventId, r.title]);
};
/** The sync the screen asks for (refresh=true waits for it). */
const sync = async () => events(`${RANGE}&refresh=true`);

t.test('the first sync of a calendar tells nothing', async (t) => {
  const before = await createCalendarObject({ calendar: { url: work }, filename: 'previa.ics', iCalString: calendarObject('BEGIN:VEVENT', 'UID:previa', 'DTSTAMP:20261101T000000Z', 'DTSTART:20261110T090000Z', 'DTEND:20261110T100000Z', 'SUMMARY:De antes', 'END:VEVENT'), ...dav });
  t.ok(before.ok, 'written with tsdav');
  const connected = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: radicale.url, username: ana.user, password: ana.password } });
  t.equal(connected.statusCode, 200, connected.body);
  t.ok((await sync()).some((e) => e.title === 'De antes'), 'mirrored');
  t.same(await told(), []);
});

t.test("the product's own write is told once, not again by the sync that sees it on the server", async (t) => {
  const created = await app.inject({ method: 'POST', url: '/events', headers, payload: { title: 'Nuestra', startTime: '2026-11-20T15:00:00.000Z', endTime: '2026-11-20T16:00:00.000Z', calendarId: work } });
  t.equal(created.statusCode, 201, created.body);
  const id = created.json<{ id: string }>().id;
  await sync();
  t.same(await told(), [['calendar.event.created', id, 'Nuestra']]);
});

t.test("another app's create, change and delete are told after the sync finds them", async (t) => {
  const own = await told();
  const url = new URL('otra-app.ics', work).href;
  t.ok((await createCalendarObject({ calendar: { url: work }, filename: 'otra-app.ics', iCalString: elsewhere('Creado en otra app'), ...dav })).ok);
  await sync();
  t.same((await told()).slice(own.length), [['calendar.event.created', 'otra-app', 'Creado en otra app']]);

  t.ok((await updateCalendarObject({ calendarObject: { url, data: elsewhere('Cambiado en otra app') }, ...dav })).ok);
  await sync();
  t.same((await told()).slice(own.length + 1), [['calendar.event.updated', 'otra-app', 'Cambiado en otra app']]);

  t.ok((await deleteCalendarObject({ calendarObject: { url }, ...dav })).ok);
  t.notOk((await sync()).some((e) => e.id === 'otra-app'), 'gone from the agenda');
  t.same((await told()).slice(own.length + 2), [['calendar.event.deleted', 'otra-app', null]]);
  await sync();
  t.equal((await told()).length, own.length + 3, 'a sync with nothing new tells nothing');
});
