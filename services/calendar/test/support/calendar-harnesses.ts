import type { Test } from 'tap';
import teamsService from '@asistente/teams';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { GraphPeer } from '../../../teams/test/peer/graph-peer.js';
import type { PeerTls } from '../../../teams/test/peer/peer-tls.js';
import calendarService from '../../src/app.js';
import { calendarWithPeer } from '../calendar-app.js';
import { connectGoogle } from '../connect.js';
import { calendarWithRadicale } from '../fixtures/caldav-service.js';
import type { CalendarHarness } from './calendar-conformance.js';
import { connectMicrosoft } from './meeting-harnesses.js';

/** Google Calendar: the calendar service alone, against the Google peer; the member writes in 'primary'. */
export async function googleCalendarHarness(t: Test): Promise<CalendarHarness> {
  const { peer, app } = await calendarWithPeer(t, 'http://app.test');
  let members = 0;
  return {
    provider: 'google',
    app,
    prefix: '',
    member: async () => ({ authorization: (await connectGoogle(app, peer, `agenda-${++members}@ejemplo.com`)).authorization, calendarId: 'primary' }),
    stranger: () => signToken(app).authorization,
  };
}

/** CalDAV: the calendar service alone (Google not configured), against Radicale; the member connects Ana's account. */
export async function caldavHarness(t: Test): Promise<CalendarHarness> {
  const { ana, radicale, work, app, headers } = await calendarWithRadicale(t);
  return {
    provider: 'caldav',
    app,
    prefix: '',
    member: async () => {
      const connected = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: radicale.url, username: ana.user, password: ana.password } });
      if (connected.statusCode !== 200) throw new Error(`CalDAV not connected: ${connected.body}`);
      return { authorization: headers.authorization, calendarId: work };
    },
    stranger: () => signToken(app).authorization,
  };
}

/**
 * Outlook: calendar and teams mounted together as the embedded gateway mounts them, against the Graph peer (the
 * caller runs where its CA is trusted); the member writes in the peer's default calendar.
 */
export async function outlookHarness(t: Test, tls: PeerTls): Promise<CalendarHarness> {
  const graph = await new GraphPeer(tls).start();
  t.teardown(() => graph.stop());
  const calendar = graph.addCalendar('Calendario', '#0078d4', true);
  const platform = await createTestPlatform(t, { config: { ...graph.config(), PUBLIC_URL: 'http://app.test' } });
  const app = await buildServicesApp(t, [calendarService, teamsService], platform);
  return {
    provider: 'msteams',
    app,
    prefix: '/api',
    member: async () => {
      const { authorization } = signToken(app);
      await connectMicrosoft(app, authorization);
      return { authorization, calendarId: calendar.id };
    },
    stranger: () => signToken(app).authorization,
  };
}
