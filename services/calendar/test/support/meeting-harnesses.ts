import type { Test } from 'tap';
import teamsService from '@asistente/teams';
import type { App } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, oauthCookie, signToken } from '@asistente/kit/testing';
import { GraphPeer } from '../../../teams/test/peer/graph-peer.js';
import type { PeerTls } from '../../../teams/test/peer/peer-tls.js';
import calendarService from '../../src/app.js';
import { calendarWithPeer } from '../calendar-app.js';
import { connectGoogle } from '../connect.js';
import type { MeetingHarness } from './meeting-conformance.js';

/** Google Meet: the calendar service alone, against the Google peer; cut off, the peer drops every API connection. */
export async function googleMeetHarness(t: Test): Promise<MeetingHarness> {
  const { peer, app } = await calendarWithPeer(t, 'http://app.test');
  let members = 0;
  return {
    provider: 'google-meet',
    account: 'Google Calendar',
    app,
    prefix: '',
    member: async () => (await connectGoogle(app, peer, `reuniones-${++members}@ejemplo.com`)).authorization,
    stranger: () => signToken(app).authorization,
    joinUrl: /^https:\/\/meet\.google\.com\//,
    asked: () => peer.requests.filter((r) => r.method === 'POST' && /^\/calendar\/v3\/calendars\/[^/]+\/events$/.test(r.path)).length,
    cutOff: () => {
      peer.hangUp = true;
      return () => {
        peer.hangUp = false;
      };
    },
  };
}

/**
 * Teams: calendar and teams mounted together as the embedded gateway mounts them, against the Graph peer (the
 * caller runs where its CA is trusted); cut off, the teams service cannot be reached from the calendar service.
 */
export async function teamsHarness(t: Test, tls: PeerTls): Promise<MeetingHarness> {
  const graph = await new GraphPeer(tls).start();
  t.teardown(() => graph.stop());
  graph.addCalendar('Calendario', '#0078d4', true);
  const platform = await createTestPlatform(t, { config: { ...graph.config(), PUBLIC_URL: 'http://app.test' } });
  const app = await buildServicesApp(t, [calendarService, teamsService], platform);
  const inProcess: Parameters<typeof platform.services.attachInProcess>[0] = (request) => app.inject(request);
  return {
    provider: 'teams',
    account: 'Microsoft 365',
    app,
    prefix: '/api',
    member: async () => {
      const { authorization } = signToken(app);
      await connectMicrosoft(app, authorization);
      return authorization;
    },
    stranger: () => signToken(app).authorization,
    joinUrl: /^https:\/\/teams\.microsoft\.com\/l\/meetup-join\//,
    asked: () => graph.graphRequests(/\/me\/events$/).filter((r) => r.method === 'POST').length,
    cutOff: () => {
      platform.services.attachInProcess((request) => (request.url.startsWith('/api/teams/meetings') ? Promise.reject(new Error('cut off')) : inProcess(request)));
      return () => platform.services.attachInProcess(inProcess);
    },
  };
}

/** The authorization-code round trip through the gateway's paths: connect, the peer's consent, the callback. */
export async function connectMicrosoft(app: App, authorization: string): Promise<void> {
  const started = await app.inject({ method: 'POST', url: '/api/teams/connect', headers: { authorization } });
  const consent = await fetch(started.json<{ authUrl: string }>().authUrl, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  const callback = await app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie: oauthCookie(started.headers['set-cookie']) } });
  if (!String(callback.headers.location).endsWith('microsoft=connected')) throw new Error(`Microsoft not connected: ${String(callback.headers.location)}`);
}
