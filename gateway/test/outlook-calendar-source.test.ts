import t from 'tap';
import calendarService from '@asistente/calendar';
import teamsService from '@asistente/teams';
import type { App } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, oauthCookie, signToken } from '@asistente/kit/testing';
import { GooglePeer } from '../../services/calendar/test/google-peer.js';
import { GraphPeer } from '../../services/teams/test/peer/graph-peer.js';
import { trustedPeerTls } from '../../services/teams/test/peer/trusted.js';

/**
 * Issue 26, item 1: Outlook calendars are a provider in the calendar service's registry (source 'msteams'),
 * read through the teams service that keeps the Microsoft connection. Calendar and teams mounted together
 * as the embedded gateway mounts them, against the Graph and Google peers. The Microsoft peer speaks HTTPS
 * with its own CA, so this file runs again in a child that trusts it.
 */
const DAY_MS = 86_400_000;
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Graph's dateTimeTimeZone in UTC. */
const graphTime = (iso: string) => ({ dateTime: iso.slice(0, 23), timeZone: 'UTC' });

const tls = await trustedPeerTls(t, import.meta.url);
if (tls) await suite(tls);

interface Listed {
  id: string;
  title: string;
  source: string;
  startDate: string;
  endDate: string;
  endTime: string;
  allDay: boolean;
  joinUrl?: string | null;
}

async function suite(peerTls: NonNullable<typeof tls>): Promise<void> {
  const google = await new GooglePeer().start();
  t.teardown(() => google.stop());
  const graph = await new GraphPeer(peerTls).start();
  t.teardown(() => graph.stop());
  const platform = await createTestPlatform(t, {
    config: {
      ...google.config(),
      ...graph.config(),
      PUBLIC_URL: 'http://app.test',
    },
  });
  const app = await buildServicesApp(t, [calendarService, teamsService], platform);

  // A Wednesday two to three weeks ahead (free slots never offer the past), in winter or summer alike.
  const base = Date.now() + 14 * DAY_MS;
  const wednesday = base - (((new Date(base).getUTCDay() + 4) % 7) * DAY_MS);
  const day = ymd(wednesday);
  const at = (hour: number) => `${day}T${String(hour).padStart(2, '0')}:00:00.000Z`;
  const monthFrom = `${ymd(wednesday - 3 * DAY_MS)}T00:00:00Z`;
  const monthTo = `${ymd(wednesday + 7 * DAY_MS)}T00:00:00Z`;

  const main = graph.addCalendar('Calendario', '#0078d4', true);
  const projects = graph.addCalendar('Proyectos', '#e3008c');
  graph.addEvent(main, {
    subject: 'Revisión con Contoso',
    isOnlineMeeting: true,
    start: graphTime(at(10)),
    end: graphTime(at(11)),
    onlineMeeting: { joinUrl: 'https://teams.microsoft.com/l/meetup-join/contoso' },
  });
  graph.addEvent(main, { subject: 'Anulada', isCancelled: true, start: graphTime(at(8)), end: graphTime(at(9)) });
  // All day on the Wednesday and the Thursday: Graph ends it at Friday's midnight.
  graph.addEvent(main, { subject: 'Congreso', isAllDay: true, start: graphTime(`${day}T00:00:00.000`), end: graphTime(`${ymd(wednesday + 2 * DAY_MS)}T00:00:00.000`) });
  graph.addEvent(projects, { subject: 'Entrega', start: graphTime(at(16)), end: graphTime(at(17)) });

  const ana = signToken(app);
  const headers = { authorization: ana.authorization };
  await connectMicrosoft(app, ana.authorization);

  t.test('the agenda lists Outlook events as source msteams, the all-day end made inclusive on the server', async (t) => {
    const agenda = await app.inject({ url: `/api/events?dateFrom=${monthFrom}&dateTo=${monthTo}`, headers });
    t.equal(agenda.statusCode, 200, agenda.body);
    const events = agenda.json<Listed[]>();
    t.same(events.map((e) => [e.title, e.source]), [['Congreso', 'msteams'], ['Anulada', 'msteams'], ['Revisión con Contoso', 'msteams'], ['Entrega', 'msteams']],
      'every Outlook calendar, by start, with Google not connected');
    const congress = events.find((e) => e.title === 'Congreso')!;
    t.match(congress, { allDay: true, startDate: day, endDate: ymd(wednesday + DAY_MS), endTime: ymd(wednesday + DAY_MS) }, 'its last day is the Thursday');
    t.equal(events.find((e) => e.title === 'Revisión con Contoso')!.joinUrl, 'https://teams.microsoft.com/l/meetup-join/contoso', 'the join link travels');

    const chosen = await app.inject({ url: `/api/events?dateFrom=${monthFrom}&dateTo=${monthTo}&source=msteams&calendarId=${encodeURIComponent(projects.id)}`, headers });
    t.same(chosen.json<Listed[]>().map((e) => e.title), ['Entrega'], 'one Outlook calendar by its id');
    const byId = await app.inject({ url: `/api/events?dateFrom=${monthFrom}&dateTo=${monthTo}&calendarId=${encodeURIComponent(projects.id)}`, headers });
    t.same(byId.json<Listed[]>().map((e) => [e.title, e.source]), [['Entrega', 'msteams']], 'the registry knows the calendar id is Outlook\'s');
    const bad = await app.inject({ url: `/api/events?dateFrom=${monthFrom}&dateTo=${monthTo}&source=exchange`, headers });
    t.equal(bad.statusCode, 400);
    t.equal(bad.json().message, 'Origen inválido: usa google, msteams o caldav');
  });

  t.test("the spec's teams paths answer as before: Graph's exclusive end", async (t) => {
    for (const prefix of ['/api/msteams/calendar', '/api/microsoft']) {
      const listed = await app.inject({ url: `${prefix}/events?dateFrom=${monthFrom}&dateTo=${monthTo}`, headers });
      t.equal(listed.statusCode, 200, listed.body);
      t.match(listed.json<Listed[]>().find((e) => e.title === 'Congreso'), { endDate: ymd(wednesday + 2 * DAY_MS) }, `${prefix}/events unchanged`);
      t.same((await app.inject({ url: `${prefix}/calendars`, headers })).json<{ name: string }[]>().map((c) => c.name), ['Calendario', 'Proyectos']);
    }
  });

  t.test('free slots avoid the meetings of every Outlook calendar, not cancelled or all-day ones, and merge Google with them', async (t) => {
    const slotsOf = async () => {
      const slots = await app.inject({ url: `/api/events/free-slots?dateFrom=${day}&dateTo=${day}T23:59:59Z&durationMinutes=60&timeZone=UTC`, headers });
      t.equal(slots.statusCode, 200, slots.body);
      return slots.json<{ start: string }[]>().map((s) => s.start);
    };
    t.same(await slotsOf(), [at(9), at(11), at(12), at(13), at(14), at(15), at(17)], 'Outlook alone: 10:00-11:00 (Calendario) and 16:00-17:00 (Proyectos) are taken');

    google.addAccount('ana@ejemplo.com');
    google.putEvent('ana@ejemplo.com', 'ana@ejemplo.com', { id: 'g1', status: 'confirmed', summary: 'Dentista', start: { dateTime: at(14) }, end: { dateTime: at(15) } });
    await connectGoogle(app, ana.authorization);
    const merged = await app.inject({ url: `/api/events?dateFrom=${monthFrom}&dateTo=${monthTo}&refresh=true`, headers });
    t.same(merged.json<Listed[]>().filter((e) => !e.allDay).map((e) => [e.title, e.source]), [['Anulada', 'msteams'], ['Revisión con Contoso', 'msteams'], ['Dentista', 'google'], ['Entrega', 'msteams']],
      'both providers in one agenda, by start');
    t.same(await slotsOf(), [at(9), at(11), at(12), at(13), at(15), at(17)], 'and in free slots: Google 14:00-15:00 too');
  });

  t.test('a user without Microsoft keeps the Google answer; a failing Outlook leaves the agenda to Google', async (t) => {
    const luis = signToken(app);
    google.addAccount('luis@ejemplo.com');
    google.putEvent('luis@ejemplo.com', 'luis@ejemplo.com', { id: 'g2', status: 'confirmed', summary: 'Comida', start: { dateTime: at(12) }, end: { dateTime: at(13) } });
    await connectGoogle(app, luis.authorization);
    const agenda = await app.inject({ url: `/api/events?dateFrom=${monthFrom}&dateTo=${monthTo}&refresh=true`, headers: { authorization: luis.authorization } });
    t.same(agenda.json<Listed[]>().map((e) => [e.title, e.source]), [['Comida', 'google']]);
    const outlookOnly = await app.inject({ url: `/api/events?dateFrom=${monthFrom}&dateTo=${monthTo}&source=msteams`, headers: { authorization: luis.authorization } });
    t.equal(outlookOnly.statusCode, 409, 'asked alone, teams says why');
    t.equal(outlookOnly.json().code, 'MICROSOFT_NOT_CONNECTED');

    graph.failNext(/calendarView/, 403, { times: 10 });
    const withoutOutlook = await app.inject({ url: `/api/events?dateFrom=${monthFrom}&dateTo=${monthTo}`, headers });
    t.equal(withoutOutlook.statusCode, 200, withoutOutlook.body);
    t.same(withoutOutlook.json<Listed[]>().map((e) => e.source), ['google'], 'Graph down: the Google events still answer');
    graph.clearFaults();
  });

  t.test('Outlook events are written through /events: on Graph, in the calendar named', async (t) => {
    const before = main.events.length;
    const created = await app.inject({
      method: 'POST',
      url: '/api/events',
      headers,
      payload: { title: 'Nueva', startTime: at(9), endTime: at(10), calendarId: main.id },
    });
    t.equal(created.statusCode, 201, created.body);
    t.match(created.json(), { title: 'Nueva', source: 'msteams', calendarId: main.id });
    t.equal(main.events.length, before + 1);
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
