import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { EVENT_DATA, type EventType } from '@asistente/contracts';
import type { App, Platform } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, oauthCookie, signToken } from '@asistente/kit/testing';
import teamsService from '../src/app.js';
import { GraphPeer } from './peer/graph-peer.js';
import { trustedPeerTls } from './peer/trusted.js';

// Runs in a child that trusts the peer's self-signed CA (see trusted.ts); the first run only spawns it.
const tls = await trustedPeerTls(t, import.meta.url);
if (tls) await suite(tls);

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

  const sales = peer.addTeam('Ventas', 5, [
    { displayName: 'General' },
    { displayName: 'Privado', membershipType: 'private', memberCount: 2 },
  ]);
  const general = sales.channels[0]!;
  peer.addTeam('Soporte', 3, [{ displayName: 'General' }]);
  peer.addMessage(general, '<p>Hola <b>equipo</b> &amp; bienvenidos</p><p>Segunda&nbsp;línea<br>y tercera</p>', {
    author: 'Carlos Ruiz',
    at: new Date(Date.now() - 60_000),
  });
  peer.addMessage(general, '<div>Nada de <script>alert(1)</script>scripts &lt;b&gt;</div><attachment id="1"></attachment>', {
    author: 'Lucía Pérez',
    at: new Date(Date.now() - 30_000),
  });
  const work = peer.addCalendar('Calendario', '#0078d4', true);
  peer.addCalendar('Cumpleaños', '#e3008c');
  peer.pageSize = 2; // every collection above spans pages: the service must follow @odata.nextLink
  t.beforeEach(() => peer.clearFaults());

  t.test('connect: authorization URL, consent at the identity platform, callback, encrypted tokens', async (t) => {
    const { authorization, userId } = signToken(app);
    t.same((await app.inject({ url: '/teams/status', headers: { authorization } })).json(), { connected: false, configured: true });
    const connected = await connect(app, peer, authorization);
    t.match(connected.location, /^http:\/\/app\.test\/teams\?microsoft=connected$/, 'the browser goes back to /teams');
    const authUrl = new URL(connected.authUrl);
    t.equal(authUrl.pathname, '/common/oauth2/v2.0/authorize');
    t.equal(authUrl.searchParams.get('redirect_uri'), 'http://app.test/api/teams/callback');
    t.match(authUrl.searchParams.get('scope') ?? '', /offline_access.*Calendars\.ReadWrite.*OnlineMeetings\.ReadWrite.*ChannelMessage\.Send/);
    t.equal(authUrl.searchParams.get('code_challenge_method'), 'S256', 'PKCE');

    t.same((await app.inject({ url: '/teams/status', headers: { authorization } })).json(), {
      connected: true,
      configured: true,
      account: { name: 'Ana Torres', email: 'ana@contoso.example' },
    });
    const rows = await platform.db.sql<Record<string, unknown>[]>`select * from teams.connections where user_id = ${userId}`;
    t.equal(rows.length, 1);
    const issued = peer.requests.filter((r) => r.authorization).map((r) => r.authorization!.slice('Bearer '.length));
    t.ok(issued.length > 0);
    for (const token of issued) t.notMatch(JSON.stringify(rows), token, 'no token in clear in the database');
    t.match(String(rows[0]!.accessTokenEnc), /^v1:/);
    t.match(String(rows[0]!.refreshTokenEnc), /^v1:/);

    const login = await app.inject({ url: '/microsoft/login', headers: { authorization } });
    t.match(login.json(), { url: /\/oauth2\/v2\.0\/authorize\?/ }, 'GET /microsoft/login answers { url }');
    const loginPost = await app.inject({ method: 'POST', url: '/microsoft/login', headers: { authorization } });
    t.match(loginPost.json(), { url: /\/oauth2\/v2\.0\/authorize\?/ }, 'and POST too');
  });

  t.test('the callback refuses a forged or foreign state and connects nobody', async (t) => {
    const { authorization, userId } = signToken(app);
    const started = await app.inject({ method: 'POST', url: '/teams/connect', headers: { authorization } });
    const cookie = oauthCookie(started.headers['set-cookie']);
    t.match(started.headers['set-cookie'], /; Path=\/api\/teams\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/, 'no Secure while PUBLIC_URL is http');
    const consent = await fetch(started.json<{ authUrl: string }>().authUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    back.searchParams.set('state', `${back.searchParams.get('state')}x`);
    const forged = await app.inject({ url: `/teams/callback${back.search}`, headers: { cookie } });
    t.equal(forged.statusCode, 302);
    t.equal(forged.headers.location, 'http://app.test/teams?microsoft=invalid', 'a fixed outcome word, no text in the URL');
    const original = new URL(consent.headers.get('location') ?? '');
    const denied = await app.inject({ url: `/microsoft/callback?error=access_denied&state=${encodeURIComponent(original.searchParams.get('state') ?? '')}`, headers: { cookie } });
    t.equal(denied.statusCode, 302, 'the second callback path answers too');
    t.equal(denied.headers.location, 'http://app.test/teams?microsoft=denied');
    t.same((await app.inject({ url: '/teams/status', headers: { authorization } })).json(), { connected: false, configured: true });
    const rows = await platform.db.sql`select 1 from teams.connections where user_id = ${userId}`;
    t.equal(rows.length, 0);
  });

  t.test('teams with member counts, channels, messages as safe text across pages', async (t) => {
    const { authorization } = await connectedUser(app, peer);
    const teams = (await app.inject({ url: '/teams', headers: { authorization } })).json();
    t.same(teams, [
      { id: sales.id, name: 'Ventas', memberCount: 5 },
      { id: peer.teams[1]!.id, name: 'Soporte', memberCount: 3 },
    ]);
    const channels = (await app.inject({ url: `/teams/${encodeURIComponent(sales.id)}/channels`, headers: { authorization } })).json();
    t.same(channels, [
      { id: general.id, name: 'General', type: 'standard', memberCount: 5 },
      { id: sales.channels[1]!.id, name: 'Privado', type: 'private', memberCount: 2 },
    ]);
    const messages = (await app.inject({ url: `/teams/channels/${encodeURIComponent(general.id)}/messages`, headers: { authorization } })).json();
    t.match(messages, [
      { author: 'Carlos Ruiz', content: 'Hola equipo & bienvenidos\nSegunda línea\ny tercera', mine: false },
      { author: 'Lucía Pérez', content: 'Nada de scripts <b>', mine: false },
    ]);
    t.ok(peer.graphRequests(/\/members$/).some((r) => r.query.has('$skiptoken')), 'member pages were followed');
  });

  t.test('posting: non-blank message, sent through Graph, listed, events in the outbox', async (t) => {
    const { authorization, userId } = await connectedUser(app, peer);
    await app.inject({ url: `/teams/${encodeURIComponent(sales.id)}/channels`, headers: { authorization } });
    const url = `/teams/channels/${encodeURIComponent(general.id)}/messages`;
    for (const payload of [{ message: '   ' }, {}, { message: 7 }]) {
      const refused = await app.inject({ method: 'POST', url, headers: { authorization }, payload });
      t.equal(refused.statusCode, 400, JSON.stringify(payload));
      t.match(refused.json().message, /mensaje/);
    }
    const before = general.messages.length;
    const sent = await app.inject({ method: 'POST', url, headers: { authorization }, payload: { message: '  ¿Nos vemos a las 5? <ok>  ' } });
    t.equal(sent.statusCode, 201);
    t.match(sent.json(), { author: 'Ana Torres', content: '¿Nos vemos a las 5? <ok>', mine: true });
    t.equal(general.messages.length, before + 1, 'the peer received it');
    t.same(general.messages.at(-1)!.body, { contentType: 'text', content: '¿Nos vemos a las 5? <ok>' });

    const listed = (await app.inject({ url, headers: { authorization } })).json<{ content: string; mine: boolean }[]>();
    t.match(listed.at(-1), { content: '¿Nos vemos a las 5? <ok>', mine: true });
    await app.inject({ url, headers: { authorization } }); // polling again announces nothing new
    const events = await outboxOf(platform, userId);
    t.equal(events.filter((e) => e.type === 'teams.message.sent').length, 1);
    t.equal(events.filter((e) => e.type === 'teams.message.received').length, 2, 'each received message once, however often polled');
    t.same(events.find((e) => e.type === 'teams.message.sent')!.data, { messageId: sent.json().id, channelId: general.id });

    const unknown = await app.inject({ url: '/teams/channels/19%3Anadie%40thread.tacv2/messages', headers: { authorization } });
    t.equal(unknown.statusCode, 404);
  });

  t.test('Graph failures answer Spanish messages, never 500', async (t) => {
    const { authorization } = await connectedUser(app, peer);
    await app.inject({ url: `/teams/${encodeURIComponent(sales.id)}/channels`, headers: { authorization } });
    const url = `/teams/channels/${encodeURIComponent(general.id)}/messages`;

    peer.failNext(/\/messages$/, 403, { method: 'POST' });
    const forbidden = await app.inject({ method: 'POST', url, headers: { authorization }, payload: { message: 'hola' } });
    t.equal(forbidden.statusCode, 403);
    t.match(forbidden.json().message, /no permite esta acción/);

    peer.failNext(/\/joinedTeams$/, 429, { retryAfter: 1 });
    const started = Date.now();
    const throttledOnce = await app.inject({ url: '/teams', headers: { authorization } });
    t.equal(throttledOnce.statusCode, 200, 'one 429 with Retry-After: 1 is waited out and retried');
    t.ok(Date.now() - started >= 900, 'after the second Retry-After asked for');

    peer.failNext(/\/joinedTeams$/, 429, { retryAfter: 120 });
    const throttled = await app.inject({ url: '/teams', headers: { authorization } });
    t.equal(throttled.statusCode, 429, 'a long Retry-After is answered to the user at once');
    t.match(throttled.json().message, /limitando las peticiones/);
    const calls = (outcome: string) => {
      const series = `asistente_provider_calls_total{provider="graph",outcome="${outcome}",process="test"} `;
      return platform.metrics.text().then((text) => Number(text.split('\n').find((l) => l.startsWith(series))?.slice(series.length) ?? 0));
    };
    t.ok((await calls('rate_limited')) >= 2, 'each 429 from Graph is counted (metrics)');
    t.ok((await calls('unauthorized')) >= 1, 'and the 403');
    t.ok((await calls('ok')) > 0);

    peer.failNext(/\/messages$/, 404);
    const gone = await app.inject({ url, headers: { authorization } });
    t.equal(gone.statusCode, 404);
    t.equal(gone.json().message, 'El canal ya no existe en Microsoft Teams o ya no eres miembro.');
    const forgotten = await app.inject({ url, headers: { authorization } });
    t.equal(forgotten.statusCode, 404, 'a channel gone is forgotten until its team is listed again');

    await app.inject({ url: `/teams/${encodeURIComponent(sales.id)}/channels`, headers: { authorization } }); // listed again
    const before = general.messages.length;
    peer.failNext(/\/messages$/, 504, { method: 'POST' });
    const timedOut = await app.inject({ method: 'POST', url, headers: { authorization }, payload: { message: 'una sola vez' } });
    t.equal(timedOut.statusCode, 502, 'a 504 on a post is not repeated (it may have gone through)');
    t.equal(peer.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).length > 0, true);
    t.equal(general.messages.length, before, 'and nothing was posted twice');

    peer.failNext(/\/joinedTeams$/, 503, { times: 3 });
    const down = await app.inject({ url: '/teams', headers: { authorization } });
    t.equal(down.statusCode, 502, 'still failing after two retries');
    t.match(down.json().message, /no respondió correctamente/);
    t.equal((await app.inject({ url: '/teams', headers: { authorization } })).statusCode, 200, 'and nothing left pending');
  });

  t.test('an expired access token is refreshed once and the call succeeds; a revoked session asks to reconnect', async (t) => {
    const { authorization } = await connectedUser(app, peer);
    peer.expireAccessTokens();
    const tokenCalls = () => peer.requests.filter((r) => r.path.endsWith('/oauth2/v2.0/token')).length;
    const before = tokenCalls();
    const teams = await app.inject({ url: '/teams', headers: { authorization } });
    t.equal(teams.statusCode, 200);
    t.equal(tokenCalls(), before + 1, 'one refresh shared by the concurrent member counts');
    t.equal(peer.graphRequests(/\/joinedTeams$/).at(-1)!.authorization?.startsWith('Bearer '), true);

    peer.expireAccessTokens();
    peer.revokeRefreshTokens();
    const revoked = await app.inject({ url: '/teams', headers: { authorization } });
    t.equal(revoked.statusCode, 409);
    t.match(revoked.json().message, /vuelve a conectar tu cuenta de Microsoft/);
  });

  t.test('meetings: created as Teams online meetings with a join URL, listed with their status', async (t) => {
    const { authorization, userId } = await connectedUser(app, peer);
    const hour = 3600_000;
    const at = (offset: number) => new Date(Date.now() + offset).toISOString();
    peer.addEvent(work, { subject: 'En marcha', isOnlineMeeting: true, start: utc(at(-hour / 2)), end: utc(at(hour / 2)), onlineMeeting: { joinUrl: 'https://teams.microsoft.com/l/meetup-join/a' } });
    peer.addEvent(work, { subject: 'Terminada', isOnlineMeeting: true, start: utc(at(-3 * hour)), end: utc(at(-2 * hour)) });
    peer.addEvent(work, { subject: 'Sin Teams', isOnlineMeeting: false, start: utc(at(hour)), end: utc(at(2 * hour)) });
    peer.addEvent(work, { subject: 'Hace un día', isOnlineMeeting: true, start: utc(at(-25 * hour)), end: utc(at(-24 * hour)) });
    peer.addEvent(work, { subject: 'Cancelada', isOnlineMeeting: true, isCancelled: true, start: utc(at(3 * hour)), end: utc(at(4 * hour)) });

    const invalid: [object, RegExp][] = [
      [{ startTime: at(hour), endTime: at(2 * hour) }, /título es requerido/],
      [{ title: '  ', startTime: at(hour), endTime: at(2 * hour) }, /título es requerido/],
      [{ title: 'x', startTime: 'mañana', endTime: at(2 * hour) }, /fecha de inicio/],
      [{ title: 'x', startTime: at(2 * hour), endTime: at(hour) }, /posterior/],
      [{ title: 'x', startTime: at(hour), endTime: at(2 * hour), attendees: ['no-es-correo'] }, /asistente inválido/],
    ];
    for (const [payload, message] of invalid) {
      const refused = await app.inject({ method: 'POST', url: '/teams/meetings', headers: { authorization }, payload });
      t.equal(refused.statusCode, 400, JSON.stringify(payload));
      t.match(refused.json().message, message);
    }

    const created = await app.inject({
      method: 'POST',
      url: '/teams/meetings',
      headers: { authorization },
      payload: { title: 'Revisión trimestral', startTime: at(24 * hour), endTime: at(25 * hour), attendees: ['luis@contoso.example', 'marta@contoso.example'] },
    });
    t.equal(created.statusCode, 201);
    t.match(created.json(), {
      title: 'Revisión trimestral',
      status: 'scheduled',
      attendees: ['luis@contoso.example', 'marta@contoso.example'],
      joinUrl: /^https:\/\/teams\.microsoft\.com\/l\/meetup-join\//,
    });
    const stored = work.events.at(-1)!;
    t.equal(stored.isOnlineMeeting, true);
    t.equal(stored.onlineMeetingProvider, 'teamsForBusiness');

    const list = (await app.inject({ url: '/teams/meetings?page=1&limit=20', headers: { authorization } })).json();
    t.match(list, { page: 1, limit: 20 });
    t.same(list.meetings.map((m: { title: string; status: string }) => [m.title, m.status]), [
      ['Terminada', 'ended'],
      ['En marcha', 'in-progress'],
      ['Revisión trimestral', 'scheduled'],
    ]);
    const events = await outboxOf(platform, userId);
    t.same(events.map((e) => e.type).sort(), ['calendar.event.created', 'teams.meeting.created']);
    // One Teams meeting is one thing the owner did: its calendar entry points at the meeting, which analytics counts once.
    t.same(events.find((e) => e.type === 'calendar.event.created')!.data, { eventId: created.json().id, source: 'msteams', meetingId: created.json().id });
    t.same(events.find((e) => e.type === 'teams.meeting.created')!.data, { meetingId: created.json().id, title: 'Revisión trimestral' });
    const all = await platform.db.sql<{ type: string; data: unknown }[]>`select type, data from teams.outbox`;
    t.ok(all.length > 0);
    for (const event of all) {
      t.ok(Value.Check(EVENT_DATA[event.type as EventType], event.data), `${event.type} matches the event contract analytics consumes`);
    }
  });

  t.test('Outlook calendars and normalised events under both paths', async (t) => {
    const { authorization } = await connectedUser(app, peer);
    for (const prefix of ['/microsoft', '/msteams/calendar']) {
      const calendars = (await app.inject({ url: `${prefix}/calendars`, headers: { authorization } })).json();
      t.same(calendars, [
        { id: work.id, name: 'Calendario', color: '#0078d4' },
        { id: peer.calendars[1]!.id, name: 'Cumpleaños', color: '#e3008c' },
      ]);
    }
    const birthdays = peer.calendars[1]!;
    peer.addEvent(birthdays, { subject: '', start: utc('2031-03-10T09:00:00.000Z'), end: utc('2031-03-10T10:00:00.000Z'), location: { displayName: 'Sala 2' }, bodyPreview: 'Traer tarta' });
    peer.addEvent(birthdays, {
      subject: 'Semanal',
      start: utc('2031-03-11T08:00:00.000Z'),
      end: utc('2031-03-11T08:30:00.000Z'),
      type: 'occurrence',
      recurrence: { pattern: { type: 'weekly', interval: 1 }, range: { type: 'noEnd', startDate: '2031-03-11' } },
      attendees: [{ emailAddress: { address: 'luis@contoso.example', name: 'Luis' }, type: 'required' }],
    });
    peer.addEvent(birthdays, { subject: 'Cancelada', isCancelled: true, start: utc('2031-03-12T08:00:00.000Z'), end: utc('2031-03-12T09:00:00.000Z') });
    peer.addEvent(birthdays, { subject: 'Cumpleaños de Luis', isAllDay: true, start: utc('2031-03-20T00:00:00.000Z'), end: utc('2031-03-21T00:00:00.000Z') });
    peer.addEvent(birthdays, { subject: 'Fuera de rango', start: utc('2031-05-01T08:00:00.000Z'), end: utc('2031-05-01T09:00:00.000Z') });

    const query = `calendarId=${encodeURIComponent(birthdays.id)}&dateFrom=2031-03-01T00:00:00.000Z&dateTo=2031-04-01T00:00:00.000Z`;
    for (const path of ['/microsoft/events', '/msteams/calendar/events']) {
      const events = (await app.inject({ url: `${path}?${query}`, headers: { authorization } })).json();
      t.equal(events.length, 4, path);
      t.match(events[0], {
        title: '(sin título)',
        description: 'Traer tarta',
        startDate: '2031-03-10T09:00:00.000Z',
        endDate: '2031-03-10T10:00:00.000Z',
        location: 'Sala 2',
        type: 'meeting',
        status: 'confirmed',
        source: 'msteams',
        isRecurring: false,
        recurrencePattern: null,
      });
      t.match(events[1], { title: 'Semanal', isRecurring: true, recurrencePattern: 'weekly', attendees: ['luis@contoso.example'] });
      t.match(events[2], { title: 'Cancelada', status: 'cancelled' });
      t.match(events[3], { allDay: true, type: 'reminder', startDate: '2031-03-20', endDate: '2031-03-21', startTime: '2031-03-20', endTime: '2031-03-21' }, "all day: Graph's exclusive end");
    }
    const bad = await app.inject({ url: '/microsoft/events?dateFrom=ayer', headers: { authorization } });
    t.equal(bad.statusCode, 400);
    t.match(bad.json().message, /dateFrom/);
    const missing = await app.inject({ url: '/msteams/calendar/events?calendarId=AAMkNoExiste', headers: { authorization } });
    t.equal(missing.statusCode, 404);
    t.equal(missing.json().message, 'El calendario ya no existe en Outlook.');
  });

  t.test('not connected answers 409; disconnect forgets; no token, no answer', async (t) => {
    const { authorization, userId } = await connectedUser(app, peer);
    const stranger = signToken(app);
    const refused = await app.inject({ url: '/teams', headers: { authorization: stranger.authorization } });
    t.equal(refused.statusCode, 409);
    t.match(refused.json().message, /no está conectada/);
    t.same((await app.inject({ method: 'POST', url: '/teams/disconnect', headers: { authorization } })).json(), { success: true });
    t.same((await app.inject({ method: 'POST', url: '/teams/disconnect', headers: { authorization } })).json(), { success: true }, 'twice is fine');
    t.same((await app.inject({ url: '/teams/status', headers: { authorization } })).json(), { connected: false, configured: true });
    // Connected and disconnected once each, through the outbox, naming Microsoft and no token.
    const lines = await platform.db.sql<{ data: { activity: string; detail: { provider?: string } } }[]>`
      select data from teams.outbox where user_id = ${userId} and type = 'security.activity.recorded' order by occurred_at, id`;
    t.same(lines.map((l) => [l.data.activity, l.data.detail.provider]), [['provider.connected', 'microsoft'], ['provider.disconnected', 'microsoft']]);
    t.notMatch(JSON.stringify(lines), /token/i);
    t.equal((await app.inject({ url: `/teams/channels/${encodeURIComponent(general.id)}/messages`, headers: { authorization } })).statusCode, 409);
    t.equal((await app.inject({ url: '/teams' })).statusCode, 401);
  });

  t.test('not configured: 503 telling the owner to ask the administrator (no setting names), status says so', async (t) => {
    const bare = await createTestPlatform(t);
    const bareApp = await buildServiceApp(t, teamsService, bare);
    const { authorization } = signToken(bareApp);
    const status = (await bareApp.inject({ url: '/teams/status', headers: { authorization } })).json();
    t.match(status, { connected: false, configured: false, message: /Pide al administrador que configure la conexión con Microsoft 365/ });
    t.notMatch(status.message, /CLIENT_ID|CLIENT_SECRET/, 'nothing the owner cannot act on');
    for (const [method, url] of [['POST', '/teams/connect'], ['GET', '/microsoft/login'], ['GET', '/teams'], ['GET', '/microsoft/calendars']] as const) {
      const response = await bareApp.inject({ method, url, headers: { authorization } });
      t.equal(response.statusCode, 503, url);
      t.match(response.json().message, /Pide al administrador/);
    }
  });
}

function utc(iso: string) {
  return { dateTime: iso.slice(0, 23), timeZone: 'UTC' };
}

async function outboxOf(platform: Platform, userId: string) {
  // The security log's lines (connected, disconnected) are asserted on their own.
  return platform.db.sql<{ type: string; data: unknown }[]>`
    select type, data from teams.outbox where user_id = ${userId} and type <> 'security.activity.recorded' order by occurred_at`;
}

/** The whole authorization-code round trip: connect, the identity platform's consent redirect, the callback. */
async function connect(app: App, peer: GraphPeer, authorization: string): Promise<{ authUrl: string; location: string }> {
  const started = await app.inject({ method: 'POST', url: '/teams/connect', headers: { authorization } });
  const { authUrl } = started.json<{ authUrl: string }>();
  const consent = await fetch(authUrl, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  if (back.pathname !== '/api/teams/callback') throw new Error(`unexpected redirect ${back.toString()} from ${peer.url}`);
  const callback = await app.inject({ url: `/teams/callback${back.search}`, headers: { cookie: oauthCookie(started.headers['set-cookie']) } });
  return { authUrl, location: String(callback.headers.location) };
}

async function connectedUser(app: App, peer: GraphPeer) {
  const user = signToken(app);
  await connect(app, peer, user.authorization);
  return user;
}
