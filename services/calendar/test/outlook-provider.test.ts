import t from 'tap';
import teamsService from '@asistente/teams';
import type { App } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, oauthCookie, signToken } from '@asistente/kit/testing';
import { GraphPeer } from '../../teams/test/peer/graph-peer.js';
import { trustedPeerTls } from '../../teams/test/peer/trusted.js';
import calendarService from '../src/app.js';
import { startRadicale } from './fixtures/radicale.js';
import { GooglePeer } from './google-peer.js';

/**
 * Outlook as a full provider of the registry: every Outlook calendar in the merged agenda, events written
 * through /events (to teams' routes, Graph with the user's own token), events with an attendee asked of
 * every provider (Google, CalDAV's ATTENDEE lines, Outlook's attendees) and the providers list the
 * assistant asks. Calendar and teams mounted together as the embedded gateway mounts them, against the
 * Graph and Google peers and Radicale. The Graph peer speaks HTTPS with its own CA: this runs in a child
 * that trusts it.
 */
const graphTime = (iso: string) => ({ dateTime: iso.slice(0, 23), timeZone: 'UTC' });
const RANGE = 'dateFrom=2031-03-01T00:00:00Z&dateTo=2031-04-01T00:00:00Z';
const CLIENT = 'cliente@ejemplo.com';

const tls = await trustedPeerTls(t, import.meta.url);
if (tls) await suite(tls);

interface Listed {
  id: string;
  title: string;
  source: string;
  calendarId: string;
  startDate: string;
  endDate: string;
  allDay: boolean;
  attendees: string[];
}
interface Written extends Listed {
  summary: string;
  start: { date?: string; dateTime?: string };
  end: { date?: string; dateTime?: string };
}

async function suite(peerTls: NonNullable<typeof tls>): Promise<void> {
  const ana = { user: 'ana', password: 'clave-de-aplicacion' };
  const radicale = await startRadicale([ana]);
  t.teardown(() => radicale.stop());
  const family = await radicale.makeCalendar(ana, 'familia', 'Familia', '#E11D48FF');
  const google = await new GooglePeer().start();
  t.teardown(() => google.stop());
  const graph = await new GraphPeer(peerTls).start();
  t.teardown(() => graph.stop());
  const platform = await createTestPlatform(t, {
    config: {
      ...google.config(),
      ...graph.config(),
      PUBLIC_URL: 'http://app.test',
      ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1',
    },
  });
  const app = await buildServicesApp(t, [calendarService, teamsService], platform);

  const main = graph.addCalendar('Calendario', '#0078d4', true);
  const projects = graph.addCalendar('Proyectos', '#e3008c');
  graph.addEvent(main, { subject: 'Revisión', start: graphTime('2031-03-04T10:00:00Z'), end: graphTime('2031-03-04T11:00:00Z') });
  graph.addEvent(projects, {
    subject: 'Entrega',
    start: graphTime('2031-03-05T16:00:00Z'),
    end: graphTime('2031-03-05T17:00:00Z'),
    attendees: [{ emailAddress: { address: 'Cliente@Ejemplo.com', name: 'Cliente' } }],
  });
  graph.addEvent(projects, { subject: 'Interna', start: graphTime('2031-03-06T09:00:00Z'), end: graphTime('2031-03-06T10:00:00Z'), attendees: [{ emailAddress: { address: 'equipo@ejemplo.com' } }] });

  const owner = signToken(app);
  const headers = { authorization: owner.authorization };
  const providersOf = async (authorization: string) => (await app.inject({ url: '/api/events/providers', headers: { authorization } })).json<{ connected: boolean; providers: { source: string }[] }>();

  t.test('nothing connected: no providers; Microsoft connected: Outlook is one', async (t) => {
    t.same(await providersOf(owner.authorization), { connected: false, providers: [] });
    await connectMicrosoft(app, owner.authorization);
    t.same(await providersOf(owner.authorization), { connected: true, providers: [{ source: 'msteams' }] });
  });

  t.test('the merged agenda shows every Outlook calendar, each event naming its calendar', async (t) => {
    const agenda = await app.inject({ url: `/api/events?${RANGE}`, headers });
    t.equal(agenda.statusCode, 200, agenda.body);
    t.same(agenda.json<Listed[]>().map((e) => [e.title, e.source, e.calendarId]), [
      ['Revisión', 'msteams', main.id],
      ['Entrega', 'msteams', projects.id],
      ['Interna', 'msteams', projects.id],
    ], 'the default calendar and Proyectos, by start');
    const teamsTab = await app.inject({ url: `/api/events?${RANGE}&source=msteams`, headers });
    t.same(teamsTab.json<Listed[]>().map((e) => e.title), ['Revisión', 'Entrega', 'Interna'], 'source=msteams: every Outlook calendar too');
    const one = await app.inject({ url: `/api/events?${RANGE}&calendarId=${encodeURIComponent(main.id)}`, headers });
    t.same(one.json<Listed[]>().map((e) => e.title), ['Revisión'], 'a calendar id: that one');
  });

  t.test('/events writes Outlook events through teams: create, move, delete', async (t) => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/events',
      headers,
      payload: { title: 'Visita de obra', startTime: '2031-03-10T09:00:00Z', endTime: '2031-03-10T10:00:00Z', location: 'Calle Mayor 1', calendarId: projects.id },
    });
    t.equal(created.statusCode, 201, created.body);
    const event = created.json<Written>();
    t.match(event, { title: 'Visita de obra', summary: 'Visita de obra', source: 'msteams', calendarId: projects.id, start: { dateTime: '2031-03-10T09:00:00.000Z' } });
    t.match(projects.events.find((e) => e.id === event.id), { subject: 'Visita de obra', location: { displayName: 'Calle Mayor 1' } }, 'in Proyectos at Graph');

    const moved = await app.inject({
      method: 'PUT',
      url: `/api/events/${encodeURIComponent(event.id)}?calendarId=${encodeURIComponent(projects.id)}`,
      headers,
      payload: { title: 'Visita de obra (dos días)', startTime: '2031-03-11', endTime: '2031-03-12', allDay: true },
    });
    t.equal(moved.statusCode, 200, moved.body);
    t.match(moved.json<Written>(), { source: 'msteams', allDay: true, startDate: '2031-03-11', endDate: '2031-03-12', start: { date: '2031-03-11' }, end: { date: '2031-03-13' } },
      "the normalised end is the last day; Google's pair keeps the exclusive end, as for every provider");
    t.match(projects.events.find((e) => e.id === event.id), { isAllDay: true, start: { dateTime: '2031-03-11T00:00:00.000' }, end: { dateTime: '2031-03-13T00:00:00.000' } });
    const listed = await app.inject({ url: `/api/events?${RANGE}&calendarId=${encodeURIComponent(projects.id)}`, headers });
    t.match(listed.json<Listed[]>().find((e) => e.id === event.id), { title: 'Visita de obra (dos días)', endDate: '2031-03-12' });

    const deleted = await app.inject({ method: 'DELETE', url: `/api/events/${encodeURIComponent(event.id)}?calendarId=${encodeURIComponent(projects.id)}`, headers });
    t.equal(deleted.statusCode, 204, deleted.body);
    t.notOk(projects.events.some((e) => e.id === event.id), 'gone at Graph');
    const twice = await app.inject({ method: 'DELETE', url: `/api/events/${encodeURIComponent(event.id)}?calendarId=${encodeURIComponent(projects.id)}`, headers });
    t.equal(twice.statusCode, 404);
    t.equal(twice.json().message, 'El evento ya no existe en ese calendario de Outlook.');

    const invalid = await app.inject({ method: 'POST', url: '/api/events', headers, payload: { title: 'Al revés', startTime: '2031-03-10T10:00:00Z', endTime: '2031-03-10T09:00:00Z', calendarId: main.id } });
    t.equal(invalid.statusCode, 400);
    t.equal(invalid.json().message, 'La fecha de fin debe ser posterior a la de inicio');

    // teams answering a write outside its contract: the change may have happened, and the user is told so.
    platform.services.attachInProcess(async (request) =>
      request.method === 'POST' && request.url === '/api/microsoft/events' ? { statusCode: 201, body: '{"no":"un evento"}' } : app.inject(request));
    t.teardown(() => platform.services.attachInProcess((request) => app.inject(request)));
    const unconfirmed = await app.inject({ method: 'POST', url: '/api/events', headers, payload: { title: 'Dudosa', startTime: '2031-03-10T11:00:00Z', endTime: '2031-03-10T12:00:00Z', calendarId: main.id } });
    t.equal(unconfirmed.statusCode, 502);
    t.equal(unconfirmed.json().message, 'No se pudo confirmar el cambio en el calendario de Outlook. Revisa tu calendario antes de intentarlo de nuevo.');
  });

  t.test('without a calendar id, an Outlook-only user writes to the default Outlook calendar', async (t) => {
    const created = await app.inject({ method: 'POST', url: '/api/events', headers, payload: { title: 'Llamada', startTime: '2031-03-12T08:00:00Z', endTime: '2031-03-12T08:30:00Z' } });
    t.equal(created.statusCode, 201, created.body);
    t.match(created.json<Written>(), { source: 'msteams', calendarId: main.id }, 'named by its own id, so a later change finds it');
    t.ok(main.events.some((e) => e.id === created.json<Written>().id));
  });

  t.test("another user's Outlook event is not found, and stays as it was", async (t) => {
    const target = main.events.find((e) => e.subject === 'Revisión')!;
    const luis = signToken(app);
    google.addAccount('luis@ejemplo.com');
    await connectGoogle(app, luis.authorization);
    const url = `/api/events/${encodeURIComponent(target.id!)}?calendarId=${encodeURIComponent(main.id)}`;
    const changed = await app.inject({ method: 'PUT', url, headers: { authorization: luis.authorization }, payload: { title: 'Mía', startTime: '2031-03-04T10:00:00Z', endTime: '2031-03-04T11:00:00Z' } });
    t.equal(changed.statusCode, 404, changed.body);
    const removed = await app.inject({ method: 'DELETE', url, headers: { authorization: luis.authorization } });
    t.equal(removed.statusCode, 404, removed.body);
    t.equal(main.events.find((e) => e.id === target.id)?.subject, 'Revisión', 'untouched at Graph');
  });

  t.test('events with an attendee come from every provider: Google, CalDAV (ATTENDEE) and Outlook', async (t) => {
    google.addAccount('ana@ejemplo.com');
    google.putEvent('ana@ejemplo.com', 'ana@ejemplo.com', {
      id: 'g1', status: 'confirmed', summary: 'Presupuesto en Google',
      start: { dateTime: '2031-03-03T09:00:00Z' }, end: { dateTime: '2031-03-03T10:00:00Z' }, attendees: [{ email: CLIENT }],
    });
    google.putEvent('ana@ejemplo.com', 'ana@ejemplo.com', { id: 'g2', status: 'confirmed', summary: 'Sin el cliente', start: { dateTime: '2031-03-03T11:00:00Z' }, end: { dateTime: '2031-03-03T12:00:00Z' } });
    await connectGoogle(app, owner.authorization);
    const put = await radicale.request(ana, 'PUT', '/ana/familia/obra.ics', [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Prueba//ES',
      'BEGIN:VEVENT', 'UID:obra', 'DTSTAMP:20310101T000000Z', 'DTSTART:20310307T090000Z', 'DTEND:20310307T100000Z', 'SUMMARY:Visita en CalDAV',
      'ORGANIZER:mailto:ana@ejemplo.com', `ATTENDEE;CN=Cliente;PARTSTAT=ACCEPTED:mailto:${CLIENT}`, 'END:VEVENT',
      'END:VCALENDAR', '',
    ].join('\r\n'), { 'content-type': 'text/calendar' });
    t.equal(put.status, 201);
    const connected = await app.inject({ method: 'POST', url: '/api/caldav/connect', headers, payload: { url: radicale.url, username: 'ana', password: ana.password } });
    t.equal(connected.statusCode, 200, connected.body);
    t.same(await providersOf(owner.authorization), { connected: true, providers: [{ source: 'google' }, { source: 'caldav' }, { source: 'msteams' }] });
    // Mirrors filled first (a refresh of the whole agenda), then asked by attendee.
    t.equal((await app.inject({ url: `/api/events?${RANGE}&refresh=true`, headers })).statusCode, 200);

    const found = await app.inject({ url: `/api/events/with-attendee?${RANGE}&attendee=${encodeURIComponent(CLIENT)}`, headers });
    t.equal(found.statusCode, 200, found.body);
    t.same(found.json<Listed[]>().map((e) => [e.title, e.source]), [
      ['Presupuesto en Google', 'google'],
      ['Entrega', 'msteams'],
      ['Visita en CalDAV', 'caldav'],
    ], 'by start, each with its source; the address compared without case');
    t.equal(found.json<Listed[]>()[2]!.calendarId, family);
    const nobody = await app.inject({ url: `/api/events/with-attendee?${RANGE}&attendee=nadie@ejemplo.com`, headers });
    t.same(nobody.json(), []);
  });

  t.test('with Google connected, an event without a calendar id still goes to Google', async (t) => {
    const created = await app.inject({ method: 'POST', url: '/api/events', headers, payload: { title: 'Para Google', startTime: '2031-03-13T08:00:00Z', endTime: '2031-03-13T09:00:00Z' } });
    t.equal(created.statusCode, 201, created.body);
    t.match(created.json<Written>(), { source: 'google', calendarId: 'ana@ejemplo.com' });
    t.notOk(main.events.some((e) => e.subject === 'Para Google'), 'not in Outlook');
  });

  async function connectMicrosoft(app: App, authorization: string): Promise<void> {
    const started = await app.inject({ method: 'POST', url: '/api/teams/connect', headers: { authorization } });
    const consent = await fetch(started.json<{ authUrl: string }>().authUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    const callback = await app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie: oauthCookie(started.headers['set-cookie']) } });
    if (!String(callback.headers.location).endsWith('microsoft=connected')) throw new Error(`Microsoft not connected: ${String(callback.headers.location)}`);
  }

  async function connectGoogle(app: App, authorization: string): Promise<void> {
    const redirect = await app.inject({ url: '/api/google/redirect', headers: { authorization } });
    const consent = await fetch(redirect.json<{ url: string }>().url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    const callback = await app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie: oauthCookie(redirect.headers['set-cookie']) } });
    if (!String(callback.headers.location).includes('google=connected')) throw new Error(`Google not connected: ${String(callback.headers.location)}`);
  }
}
