import t from 'tap';
import type { App, Platform } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, oauthCookie, signToken } from '@asistente/kit/testing';
import teamsService from '../src/app.js';
import { GraphPeer } from './peer/graph-peer.js';
import { trustedPeerTls } from './peer/trusted.js';

/**
 * Outlook events written through teams' calendar routes (the calendar service's /events reaches Outlook
 * through these): create, update and delete in one calendar or the default one, Graph's shapes checked by
 * the peer, the domain events through the outbox, Spanish 400s, and Graph's 404 for an event not there.
 */
const tls = await trustedPeerTls(t, import.meta.url);
if (tls) await suite(tls);

interface Answered {
  id: string;
  title: string;
  description: string;
  location: string;
  startDate: string;
  endDate: string;
  allDay: boolean;
  source: string;
  calendarId: string;
}

async function suite(peerTls: NonNullable<typeof tls>): Promise<void> {
  const peer = await new GraphPeer(peerTls).start();
  t.teardown(() => peer.stop());
  const platform = await createTestPlatform(t, {
    config: {
      ...peer.config(),
      PUBLIC_URL: 'http://app.test',
    },
  });
  const app = await buildServiceApp(t, teamsService, platform);
  const main = peer.addCalendar('Calendario', '#0078d4', true);
  const projects = peer.addCalendar('Proyectos', '#e3008c');
  const ana = signToken(app);
  const headers = { authorization: ana.authorization };
  await connect(app, ana.authorization);

  for (const prefix of ['/microsoft', '/msteams/calendar']) {
    t.test(`${prefix}/events: create, update and delete in a chosen calendar`, async (t) => {
      const created = await app.inject({
        method: 'POST',
        url: `${prefix}/events`,
        headers,
        payload: { title: ' Entrega ', startTime: '2031-05-06T09:00:00.000Z', endTime: '2031-05-06T10:30:00.000Z', location: 'Oficina', calendarId: projects.id },
      });
      t.equal(created.statusCode, 201, created.body);
      const event = created.json<Answered>();
      t.match(event, { title: 'Entrega', location: 'Oficina', startDate: '2031-05-06T09:00:00.000Z', endDate: '2031-05-06T10:30:00.000Z', allDay: false, source: 'msteams', calendarId: projects.id });
      const stored = projects.events.find((e) => e.id === event.id);
      t.match(stored, { subject: 'Entrega', isAllDay: false, start: { dateTime: '2031-05-06T09:00:00.000', timeZone: 'UTC' } }, 'in the chosen calendar at Graph');
      t.equal(main.events.some((e) => e.id === event.id), false, 'not in the default one');

      const updated = await app.inject({
        method: 'PUT',
        url: `${prefix}/events/${encodeURIComponent(event.id)}`,
        headers,
        payload: { title: 'Entrega final', startTime: '2031-05-07', endTime: '2031-05-08', allDay: true, calendarId: projects.id },
      });
      t.equal(updated.statusCode, 200, updated.body);
      // As the spec's teams paths answer every all-day event: Graph's exclusive end (the calendar service makes it inclusive).
      t.match(updated.json<Answered>(), { id: event.id, title: 'Entrega final', allDay: true, startDate: '2031-05-07', endDate: '2031-05-09', location: 'Oficina' });
      t.match(projects.events.find((e) => e.id === event.id), { isAllDay: true, start: { dateTime: '2031-05-07T00:00:00.000' }, end: { dateTime: '2031-05-09T00:00:00.000' } });

      const deleted = await app.inject({ method: 'DELETE', url: `${prefix}/events/${encodeURIComponent(event.id)}?calendarId=${encodeURIComponent(projects.id)}`, headers });
      t.equal(deleted.statusCode, 204, deleted.body);
      t.equal(projects.events.some((e) => e.id === event.id), false, 'gone at Graph');
      const again = await app.inject({ method: 'DELETE', url: `${prefix}/events/${encodeURIComponent(event.id)}?calendarId=${encodeURIComponent(projects.id)}`, headers });
      t.equal(again.statusCode, 404);
      t.equal(again.json().message, 'El evento ya no existe en ese calendario de Outlook.');

      const types = (await outboxOf(platform, ana.userId)).slice(-3);
      t.same(types.map((e) => e.type), ['calendar.event.created', 'calendar.event.updated', 'calendar.event.deleted']);
      t.same(types[0]!.data, { eventId: event.id, source: 'msteams', title: 'Entrega' });
      t.same(types[2]!.data, { eventId: event.id, source: 'msteams' });
    });
  }

  t.test('without a calendar id the default calendar; an event of another calendar is not found there', async (t) => {
    const created = await app.inject({ method: 'POST', url: '/microsoft/events', headers, payload: { title: 'Llamada', startTime: '2031-05-06T12:00:00Z', endTime: '2031-05-06T12:30:00Z' } });
    t.equal(created.statusCode, 201, created.body);
    const id = created.json<Answered>().id;
    t.equal(created.json<Answered>().calendarId, main.id, 'named by its own id');
    t.ok(main.events.some((e) => e.id === id), 'in the default calendar');
    const elsewhere = await app.inject({
      method: 'PUT',
      url: `/microsoft/events/${encodeURIComponent(id)}`,
      headers,
      payload: { title: 'Movida', startTime: '2031-05-06T13:00:00Z', endTime: '2031-05-06T13:30:00Z', calendarId: projects.id },
    });
    t.equal(elsewhere.statusCode, 404);
    t.equal(main.events.find((e) => e.id === id)!.subject, 'Llamada', 'unchanged');
  });

  t.test('the form is checked in Spanish before Graph is asked', async (t) => {
    const before = peer.graphRequests(/\/events$/).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '   ', startTime: '2031-05-06T12:00:00Z', endTime: '2031-05-06T13:00:00Z' }, 'El título es requerido'],
      [{ title: 'Al revés', startTime: '2031-05-06T12:00:00Z', endTime: '2031-05-06T11:00:00Z' }, 'La fecha de fin debe ser posterior a la de inicio'],
      [{ title: 'Sin fecha', startTime: 'mañana', endTime: '2031-05-06T11:00:00Z' }, 'La fecha de inicio no es una fecha válida'],
      [{ title: 'Día', startTime: '2031-05-06T10:00:00Z', endTime: '2031-05-06', allDay: true }, 'La fecha de inicio debe ser una fecha (AAAA-MM-DD) en un evento de todo el día'],
      [{ title: 'Larga', startTime: '2031-05-01', endTime: '2031-07-01', allDay: true }, 'Un evento no puede durar más de 31 días'],
      [{ title: 'Sin fin', startTime: '2031-05-06T12:00:00Z' }, 'La fecha de fin es requerida'],
    ];
    for (const [payload, message] of cases) {
      const answer = await app.inject({ method: 'POST', url: '/microsoft/events', headers, payload });
      t.equal(answer.statusCode, 400, message);
      t.equal(answer.json().message, message);
    }
    t.equal(peer.graphRequests(/\/events$/).length, before, 'nothing reached Graph');
    const unknown = await app.inject({ method: 'POST', url: '/microsoft/events', headers, payload: { title: 'Perdida', startTime: '2031-05-06T12:00:00Z', endTime: '2031-05-06T13:00:00Z', calendarId: 'AAMkNoExiste' } });
    t.equal(unknown.statusCode, 404);
    t.equal(unknown.json().message, 'El calendario ya no existe en Outlook.');
  });

  t.test('a user without Microsoft is told to connect it', async (t) => {
    const luis = signToken(app);
    const answer = await app.inject({ method: 'DELETE', url: `/microsoft/events/${encodeURIComponent(main.events[0]?.id ?? 'AAMkEv')}`, headers: { authorization: luis.authorization } });
    t.equal(answer.statusCode, 409);
    t.equal(answer.json().code, 'MICROSOFT_NOT_CONNECTED');
  });

  async function connect(app: App, authorization: string): Promise<void> {
    const started = await app.inject({ method: 'POST', url: '/teams/connect', headers: { authorization } });
    const consent = await fetch(started.json<{ authUrl: string }>().authUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    const callback = await app.inject({ url: `/teams/callback${back.search}`, headers: { cookie: oauthCookie(started.headers['set-cookie']) } });
    if (!String(callback.headers.location).endsWith('microsoft=connected')) throw new Error(`Microsoft not connected: ${String(callback.headers.location)}`);
  }
}

async function outboxOf(platform: Platform, userId: string) {
  return platform.db.sql<{ type: string; data: unknown }[]>`
    select type, data from teams.outbox where user_id = ${userId} and type <> 'security.activity.recorded' order by occurred_at, id`;
}
