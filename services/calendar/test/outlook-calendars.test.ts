import t, { type Test } from 'tap';
import teamsService from '@asistente/teams';
import type { App } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, oauthCookie, signToken } from '@asistente/kit/testing';
import { GraphPeer } from '../../teams/test/peer/graph-peer.js';
import { trustedPeerTls } from '../../teams/test/peer/trusted.js';
import calendarService from '../src/app.js';

/**
 * Every Outlook calendar counts, and one failing calendar costs only its own events: free slots avoid the busy
 * time of each Outlook calendar (not only the default one), and a calendar Graph refuses (403, a shared calendar
 * whose owner withdrew it) leaves only that calendar's events out of the merged agenda and of the busy time.
 * Calendar and teams mounted together as the embedded gateway mounts them, against the Graph peer (HTTPS with
 * its own CA: this runs in a child that trusts it).
 */
const graphTime = (iso: string) => ({ dateTime: iso.slice(0, 23), timeZone: 'UTC' });
const DAY = '2031-03-04';
const RANGE = `dateFrom=${DAY}T00:00:00Z&dateTo=${DAY}T23:59:59Z`;
const SLOTS = `/api/events/free-slots?${RANGE}&durationMinutes=60&workStart=09:00&workEnd=17:00&timeZone=UTC`;
const at = (hour: number) => `${DAY}T${String(hour).padStart(2, '0')}:00:00.000Z`;

const tls = await trustedPeerTls(t, import.meta.url);
if (tls) await suite(tls);

interface Listed {
  title: string;
  source: string;
  calendarId: string;
}

async function suite(peerTls: NonNullable<typeof tls>): Promise<void> {
  const graph = await new GraphPeer(peerTls).start();
  t.teardown(() => graph.stop());
  const platform = await createTestPlatform(t, {
    config: {
      ...graph.config(),
      PUBLIC_URL: 'http://app.test',
    },
  });
  const app = await buildServicesApp(t, [calendarService, teamsService], platform);

  const main = graph.addCalendar('Calendario', '#0078d4', true);
  const projects = graph.addCalendar('Proyectos', '#e3008c');
  const shared = graph.addCalendar('Compartido', '#107c10');
  graph.addEvent(main, { subject: 'Revisión', start: graphTime(at(10)), end: graphTime(at(11)) });
  graph.addEvent(projects, { subject: 'Entrega', start: graphTime(at(12)), end: graphTime(at(13)) });
  graph.addEvent(shared, { subject: 'Turno compartido', start: graphTime(at(15)), end: graphTime(at(16)) });

  const { authorization } = signToken(app);
  const headers = { authorization };
  await connectMicrosoft(app, authorization);
  const starts = async (t: Test) => {
    const slots = await app.inject({ url: SLOTS, headers });
    t.equal(slots.statusCode, 200, 'free slots answered');
    return slots.json<{ start: string }[]>().map((s) => s.start);
  };
  const titles = async (t: Test) => {
    const agenda = await app.inject({ url: `/api/events?${RANGE}`, headers });
    t.equal(agenda.statusCode, 200, 'the agenda answered');
    return agenda.json<Listed[]>().map((e) => [e.title, e.calendarId]);
  };
  const sharedView = new RegExp(`/me/calendars/${shared.id}/calendarView`);

  t.test('free slots avoid the busy time of every Outlook calendar', async (t) => {
    t.same(await starts(t), [at(9), at(11), at(13), at(14), at(16)], 'the default calendar, Proyectos and Compartido all block');
    t.same(await titles(t), [['Revisión', main.id], ['Entrega', projects.id], ['Turno compartido', shared.id]], 'the agenda lists the three');
  });

  t.test('one Outlook calendar refused by Graph leaves only its own events out', async (t) => {
    // Refused however often teams asks (its retries included), until cleared.
    graph.failNext(sharedView, 403, { times: 1000 });
    t.teardown(() => graph.clearFaults());
    t.same(await titles(t), [['Revisión', main.id], ['Entrega', projects.id]], "the other calendars' events stay in the merged agenda");
    t.same(await starts(t), [at(9), at(11), at(13), at(14), at(15), at(16)], "Compartido's hour is free: its busy time is unknown, the others' still count");
    t.ok(graph.graphRequests(sharedView).length > 0, 'Compartido was asked');

    graph.clearFaults();
    t.same(await titles(t), [['Revisión', main.id], ['Entrega', projects.id], ['Turno compartido', shared.id]], 'once Graph answers again, all three');
  });

  t.test('a calendar id asked alone still answers its own failure', async (t) => {
    graph.failNext(sharedView, 403, { times: 1000 });
    t.teardown(() => graph.clearFaults());
    const one = await app.inject({ url: `/api/events?${RANGE}&calendarId=${encodeURIComponent(shared.id)}`, headers });
    t.not(one.statusCode, 200, 'not an empty calendar');
    t.type(one.json<{ message: string }>().message, 'string');
  });
}

async function connectMicrosoft(app: App, authorization: string): Promise<void> {
  const started = await app.inject({ method: 'POST', url: '/api/teams/connect', headers: { authorization } });
  const consent = await fetch(started.json<{ authUrl: string }>().authUrl, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  const callback = await app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie: oauthCookie(started.headers['set-cookie']) } });
  if (!String(callback.headers.location).endsWith('microsoft=connected')) throw new Error(`Microsoft not connected: ${String(callback.headers.location)}`);
}
