import t from 'tap';
import type { DomainEvent } from '@asistente/contracts';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import analyticsService, { rebuildRollups } from '../src/app.js';
import { event } from './fixtures.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, analyticsService, platform);

/** One event, one Meet and one Teams meeting, published exactly as the calendar and teams services do. */
function ownersAfternoon(userId: string): DomainEvent[] {
  const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  return [
    event('calendar.event.created', userId, at(30), { eventId: 'g-evento', source: 'google', title: 'Entrega de harina' }),
    event('meet.meeting.created', userId, at(20), { meetingId: 'meet-1', title: 'Cata con clientes' }),
    event('calendar.event.created', userId, at(20), { eventId: 'g-meet', source: 'google', meetingId: 'meet-1' }),
    event('teams.meeting.created', userId, at(10), { meetingId: 'teams-1', title: 'Revisión con el gestor' }),
    event('calendar.event.created', userId, at(10), { eventId: 'teams-1', source: 'msteams', meetingId: 'teams-1' }),
  ];
}

async function figures(authorization: string) {
  const get = async (path: string) => (await app.inject({ url: `/analytics/${path}`, headers: { authorization } })).json();
  const [dashboard, activity, productivity, recent] = await Promise.all([
    get('dashboard?period=30d'),
    get('activity?period=7d'),
    get('productivity?period=30d'),
    get('recent?limit=10'),
  ]);
  return {
    events: dashboard.totalEvents as number,
    activity: (activity as { activity: number }[]).reduce((sum, p) => sum + p.activity, 0),
    meetings: (productivity as { meetings: number }[]).reduce((sum, p) => sum + p.meetings, 0),
    recent: (recent.items as { type: string; data: { title?: string } }[]).map((i) => `${i.type}: ${i.data.title ?? ''}`),
  };
}

t.test('one event, one Meet and one Teams meeting are three, once each, under their own name; rebuild agrees', async (t) => {
  const me = signToken(app);
  await platform.bus.publish(ownersAfternoon(me.userId) as never[]);
  const expected = {
    events: 3,
    activity: 3,
    meetings: 3,
    recent: ['teams.meeting.created: Revisión con el gestor', 'meet.meeting.created: Cata con clientes', 'calendar.event.created: Entrega de harina'],
  };
  t.same(await figures(me.authorization), expected);
  await rebuildRollups(platform.db.sql, 7);
  t.same(await figures(me.authorization), expected, 'the rebuild from events gives the same figures');
});

t.test("a Teams meeting's entry recorded before meetingId existed is still its meeting's, not a second event", async (t) => {
  const me = signToken(app);
  const at = new Date(Date.now() - 5 * 60_000);
  await platform.bus.publish([
    event('teams.meeting.created', me.userId, at, { meetingId: 'old-teams' }),
    event('calendar.event.created', me.userId, at, { eventId: 'old-teams', source: 'msteams' }),
  ] as never[]);
  const seen = await figures(me.authorization);
  t.same({ events: seen.events, activity: seen.activity, recent: seen.recent }, { events: 1, activity: 1, recent: ['teams.meeting.created: '] });
});
