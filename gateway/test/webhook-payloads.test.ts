// What happens in bulk or in another service reaches a webhook with the record's fields: a CSV import's contacts, a CalDAV entry created, moved and deleted.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { Receiver } from '../../services/webhooks/test/receiver.js';
import { startRadicale } from '../../services/calendar/test/fixtures/radicale.js';

// Every service behind one gateway; JetStream when NATS_URL is set, the in-process bus otherwise. The receiver and
// Radicale listen on loopback, which the operator allows (a self-hosted n8n, a calendar server of their own).
const platform = await createTestPlatform(t, { nats: true, config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const gateway = await buildGateway(platform, 'embedded');
await gateway.ready();
t.teardown(() => gateway.close());
const receiver = await Receiver.start();
t.teardown(() => receiver.close());
const ana = { user: 'ana', password: 'clave-de-aplicacion' };
const radicale = await startRadicale([ana]);
t.teardown(() => radicale.stop());
const work = await radicale.makeCalendar(ana, 'trabajo', 'Trabajo', '#16A765FF');

/** Set-up runs before any test: a failed step throws. */
function succeeded(res: { statusCode: number; body: string }, what: string): void {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
}

const registered = await gateway.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: { firstName: 'Marta', lastName: 'Prueba', email: `marta.${Date.now()}@ejemplo.es`, password: 'clave-larga-1' },
});
succeeded(registered, 'registered');
const { token, user } = registered.json<{ token: string; user: { id: string } }>();
const headers = { authorization: `Bearer ${token}` };
const userId = user.id;
const sql = platform.db.sql;
const added = await gateway.inject({ method: 'POST', url: '/api/webhooks', headers, payload: { url: receiver.url, events: ['contact.created', 'calendar.event.created', 'calendar.event.updated', 'calendar.event.deleted'] } });
succeeded(added, 'webhook added');
const { secret } = added.json<{ secret: string }>();

/** The messages the receiver got from `from` on, verified with the endpoint's secret. */
const verified = (from: number) =>
  receiver.requests.slice(from).map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> });

t.test('a 5-row CSV import delivers 5 contact.created, each with its name and email', async (t) => {
  const before = receiver.requests.length;
  const csv = [
    'firstName,lastName,email,phone,company,tags',
    'Lucía,Pérez,lucia@ejemplo.es,600111222,Panadería Sol,cliente',
    'Javier,López,javier@ejemplo.es,,,',
    'Carmen,Ruiz,carmen@ejemplo.es,,Talleres Norte,proveedor;vip',
    'Andrés,Gómez,,611222333,,',
    'Elena,Martín,elena@ejemplo.es,,,',
  ].join('\n');
  const imported = await gateway.inject({ method: 'POST', url: '/api/contacts/import', headers: { ...headers, 'content-type': 'text/csv' }, payload: csv });
  t.equal(imported.statusCode, 200, imported.body);
  t.match(imported.json(), { created: 5, updated: 0 });
  await receiver.received(before + 5);
  const got = verified(before);
  t.equal(got.length, 5, 'five deliveries, no more');
  t.ok(got.every((m) => m.type === 'contact.created'));
  t.same(
    got.map((m) => [m.data.firstName, m.data.lastName, m.data.email]).sort(),
    [
      ['Andrés', 'Gómez', null],
      ['Carmen', 'Ruiz', 'carmen@ejemplo.es'],
      ['Elena', 'Martín', 'elena@ejemplo.es'],
      ['Javier', 'López', 'javier@ejemplo.es'],
      ['Lucía', 'Pérez', 'lucia@ejemplo.es'],
    ],
  );
  const carmen = got.find((m) => m.data.firstName === 'Carmen')!;
  t.match(carmen.data, { hasEmail: true, company: 'Talleres Norte', tags: ['proveedor', 'vip'] });
  const contacts = (await gateway.inject({ url: '/api/contacts?limit=10', headers })).json<{ contacts: { id: string }[] }>();
  t.same(got.map((m) => m.data.contactId).sort(), contacts.contacts.map((c) => c.id).sort(), 'the ids of the contacts written');

  // Analytics counts the import by its batch's event, and keeps no copy of the contacts announced one by one.
  const counted = () => sql<{ n: number }[]>`select count(*)::int as n from analytics.events where user_id = ${userId} and type = 'contacts.contact.imported'`;
  while ((await counted())[0]!.n === 0);
  const copies = await sql<{ n: number }[]>`
    select count(*)::int as n from analytics.events where user_id = ${userId} and (type = 'contacts.contact.created' or data::text like '%lucia@ejemplo.es%')`;
  t.equal(copies[0]!.n, 0, 'no per-contact line, no address');
  const figures = await sql<{ value: number }[]>`select value::int from analytics.totals where user_id = ${userId} and metric = 'contacts.created'`;
  t.same(figures.map((f) => f.value), [5], 'five contacts created, counted once');
});

t.test('an entry created in a CalDAV calendar delivers calendar.event.created with its title and times', async (t) => {
  const connected = await gateway.inject({ method: 'POST', url: '/api/caldav/connect', headers, payload: { url: radicale.url, username: ana.user, password: ana.password } });
  t.equal(connected.statusCode, 200, connected.body);
  const before = receiver.requests.length;
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/events',
    headers,
    payload: { title: 'Revisión de presupuesto', startTime: '2026-11-20T15:00:00.000Z', endTime: '2026-11-20T16:00:00.000Z', calendarId: work },
  });
  t.equal(created.statusCode, 201, created.body);
  await receiver.received(before + 1);
  const [message] = verified(before);
  t.same(message, {
    type: 'calendar.event.created',
    timestamp: message?.timestamp,
    data: {
      eventId: created.json<{ id: string }>().id,
      source: 'caldav',
      title: 'Revisión de presupuesto',
      startAt: '2026-11-20T15:00:00.000Z',
      endAt: '2026-11-20T16:00:00.000Z',
      allDay: false,
    },
  });
});

t.test('the same CalDAV entry moved, then deleted, delivers calendar.event.updated and calendar.event.deleted, signed', async (t) => {
  const before = receiver.requests.length;
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/events',
    headers,
    payload: { title: 'Visita al taller', startTime: '2026-11-23T09:00:00.000Z', endTime: '2026-11-23T10:00:00.000Z', calendarId: work },
  });
  t.equal(created.statusCode, 201, created.body);
  const eventId = created.json<{ id: string }>().id;
  const at = `/api/events/${encodeURIComponent(eventId)}?calendarId=${encodeURIComponent(work)}`;
  const moved = await gateway.inject({
    method: 'PUT',
    url: at,
    headers,
    payload: { title: 'Visita al taller (aplazada)', startTime: '2026-11-24T11:00:00.000Z', endTime: '2026-11-24T12:30:00.000Z' },
  });
  t.equal(moved.statusCode, 200, moved.body);
  const deleted = await gateway.inject({ method: 'DELETE', url: at, headers });
  t.equal(deleted.statusCode, 204, deleted.body);
  await receiver.received(before + 3);
  // Each delivery leaves on its own: they may arrive in any order.
  const got = verified(before);
  t.same(got.map((m) => m.type).sort(), ['calendar.event.created', 'calendar.event.deleted', 'calendar.event.updated']);
  const update = got.find((m) => m.type === 'calendar.event.updated');
  const removal = got.find((m) => m.type === 'calendar.event.deleted');
  t.same(update?.data, {
    eventId,
    source: 'caldav',
    title: 'Visita al taller (aplazada)',
    startAt: '2026-11-24T11:00:00.000Z',
    endAt: '2026-11-24T12:30:00.000Z',
    allDay: false,
  });
  t.same(removal, { type: 'calendar.event.deleted', timestamp: removal?.timestamp, data: { eventId, source: 'caldav' } });
});
