import { randomUUID } from 'node:crypto';
import t from 'tap';
import type { DomainEvent } from '@asistente/contracts';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import analyticsService from '../src/app.js';
import { DAY, event, HOUR, localDay, localMidnight } from './fixtures.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, analyticsService, platform);
const me = signToken(app);

const now = new Date();
const madridMidnight = localMidnight(now, 'Europe/Madrid');
const at = (offsetMs: number) => new Date(madridMidnight.getTime() + offsetMs);
const u = me.userId;

// Around Madrid's midnight, 30 minutes either side: a different day in Madrid than in UTC or Mexico.
const fixture: DomainEvent[] = [
  event('email.message.sent', u, at(30 * 60_000), { messageId: 'e1', provider: 'gmail' }),
  event('email.message.opened', u, at(40 * 60_000), { messageId: 'e1' }),
  event('whatsapp.message.received', u, at(-30 * 60_000), { messageId: 'w1', chatId: 'ana' }),
  event('whatsapp.message.sent', u, at(-20 * 60_000), { messageId: 'w2', chatId: 'ana' }),
  event('whatsapp.autoreply.sent', u, at(-20 * 60_000), { messageId: 'w2', chatId: 'ana', kind: 'keyword' }),
  event('whatsapp.message.received', u, at(-10 * DAY), { messageId: 'w3', chatId: 'luis' }),
  event('contacts.contact.created', u, at(-6 * DAY - HOUR), { contactId: randomUUID(), hasEmail: true }),
  event('contacts.contact.created', u, at(-6 * DAY + HOUR), { contactId: randomUUID(), hasEmail: true }),
  event('contacts.contact.imported', u, at(-2 * DAY), { created: 5, updated: 2, skipped: 1, failed: 1 }),
  event('calendar.event.created', u, at(-40 * DAY), { eventId: 'c1', source: 'google' }),
  event('meet.meeting.created', u, at(-3 * DAY), { meetingId: 'm1' }),
  event('teams.message.sent', u, at(-200 * DAY), { messageId: 't1', channelId: 'general' }),
  event('teams.message.received', u, at(-1 * DAY), { messageId: 't2', channelId: 'general' }),
  event('contacts.contact.deleted', u, at(-100 * DAY), { contactId: randomUUID() }),
  event('ai.run.completed', u, at(-HOUR), { model: 'gpt-4o-mini', promptTokens: 10, completionTokens: 5, totalTokens: 15 }),
];
await platform.bus.publish(fixture as never[]);

const PERIODS = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 } as const;
type Period = keyof typeof PERIODS;

/** The expected figures, computed plainly from the fixture: the reference the SQL must match. */
function expected(period: Period, tz: string) {
  const today = localDay(now, tz);
  const days: string[] = [];
  for (let i = PERIODS[period] - 1; i >= 0; i--) {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - i);
    days.push(d.toISOString().slice(0, 10));
  }
  const inWindow = (e: DomainEvent) => localDay(new Date(e.occurredAt), tz) >= days[0]!;
  const count = (types: string[], filter = inWindow) => fixture.filter((e) => types.includes(e.type) && filter(e)).length;
  const created = (e: DomainEvent) => (e.type === 'contacts.contact.imported' ? e.data.created : e.type === 'contacts.contact.created' ? 1 : 0);
  const net = (e: DomainEvent) => created(e) - (e.type === 'contacts.contact.deleted' ? 1 : 0);
  const activityTypes = fixture.map((e) => e.type).filter((type) => !['email.message.opened', 'whatsapp.autoreply.sent', 'ai.run.completed'].includes(type));
  const onDay = (day: string) => (e: DomainEvent) => localDay(new Date(e.occurredAt), tz) === day;
  const weekday = (e: DomainEvent) => (new Date(`${localDay(new Date(e.occurredAt), tz)}T00:00:00Z`).getUTCDay() + 6) % 7;
  const productivity = ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'].map((day, i) => {
    const those = fixture.filter((e) => inWindow(e) && weekday(e) === i);
    const n = (types: string[]) => those.filter((e) => types.includes(e.type)).length;
    return {
      day,
      emails: n(['email.message.sent', 'email.message.received']),
      messages: n(['whatsapp.message.sent', 'whatsapp.message.received', 'teams.message.sent', 'teams.message.received']),
      meetings: n(['calendar.event.created', 'meet.meeting.created', 'teams.meeting.created']),
      contacts: those.reduce((sum, e) => sum + created(e), 0),
    };
  });
  return {
    dashboard: {
      totalContacts: fixture.reduce((sum, e) => sum + net(e), 0),
      totalEvents: count(['calendar.event.created', 'meet.meeting.created', 'teams.meeting.created']),
      totalEmails: count(['email.message.sent', 'email.message.received']),
      totalMessages: count(['whatsapp.message.sent', 'whatsapp.message.received', 'teams.message.sent', 'teams.message.received']),
    },
    activity: days.map((day) => ({ date: day, activity: fixture.filter((e) => activityTypes.includes(e.type) && onDay(day)(e)).length })),
    'contacts-growth': days.map((day) => ({
      date: day,
      contacts: fixture.filter((e) => localDay(new Date(e.occurredAt), tz) <= day).reduce((sum, e) => sum + net(e), 0),
    })),
    emails: { sent: count(['email.message.sent']), received: count(['email.message.received']), opened: count(['email.message.opened']), clicked: 0 },
    whatsapp: {
      sent: count(['whatsapp.message.sent']),
      received: count(['whatsapp.message.received']),
      contacts: new Set(fixture.filter((e) => inWindow(e) && 'chatId' in e.data && e.type !== 'whatsapp.autoreply.sent').map((e) => (e.data as { chatId: string }).chatId)).size,
      autoReplies: count(['whatsapp.autoreply.sent']),
    },
    teams: { messages: count(['teams.message.sent', 'teams.message.received']) },
    productivity,
  };
}

const get = async (path: string) => {
  const res = await app.inject({ url: `/analytics/${path}`, headers: { authorization: me.authorization } });
  t.equal(res.statusCode, 200, path);
  return res.json();
};

for (const tz of ['Europe/Madrid', 'UTC', 'America/Mexico_City']) {
  for (const period of Object.keys(PERIODS) as Period[]) {
    t.test(`${period} in ${tz}`, async (t) => {
      const want = expected(period, tz);
      for (const name of Object.keys(want) as (keyof typeof want)[]) {
        t.same(await get(`${name}?period=${period}&tz=${encodeURIComponent(tz)}`), want[name], name);
      }
    });
  }
}

t.test('hand-checked figures around Madrid midnight', async (t) => {
  const today = localDay(now, 'Europe/Madrid');
  const madrid = await get('activity?period=7d');
  t.equal(madrid.length, 7, 'activity defaults to 7 days');
  t.same(madrid.at(-1), { date: today, activity: 1 }, 'Madrid today: the email sent at 00:30');
  t.equal(madrid.at(-2).activity, 3, 'Madrid yesterday: two WhatsApp messages before midnight and a Teams message');
  t.equal((await get('contacts-growth')).length, 30, 'other figures default to 30 days');
  t.same(await get('dashboard?period=7d'), { totalContacts: 6, totalEvents: 1, totalEmails: 1, totalMessages: 3 });
  t.same(await get('emails?period=7d'), { sent: 1, received: 0, opened: 1, clicked: 0 });
  t.same(await get('whatsapp?period=7d'), { sent: 1, received: 1, contacts: 1, autoReplies: 1 });
});

t.test('bad period or time zone: 400 with a Spanish message', async (t) => {
  const period = await app.inject({ url: '/analytics/dashboard?period=2w', headers: { authorization: me.authorization } });
  t.equal(period.statusCode, 400);
  t.equal(period.json().message, 'El periodo debe ser 7d, 30d, 90d o 1y');
  const tz = await app.inject({ url: '/analytics/activity?tz=Marte/Olympus', headers: { authorization: me.authorization } });
  t.equal(tz.statusCode, 400);
  t.equal(tz.json().message, 'Zona horaria desconocida: "Marte/Olympus"');
});

t.test("another user's figures are all zero", async (t) => {
  const other = signToken(app);
  const res = await app.inject({ url: '/analytics/dashboard', headers: { authorization: other.authorization } });
  t.same(res.json(), { totalContacts: 0, totalEvents: 0, totalEmails: 0, totalMessages: 0 });
});

t.test('recent activity lists the latest events, newest first', async (t) => {
  const recent = await get('recent?limit=3');
  t.equal(recent.items.length, 3);
  const sorted = [...fixture].sort((a, b) => b.occurredAt.localeCompare(a.occurredAt));
  t.same(recent.items.map((i: { id: string }) => i.id), sorted.slice(0, 3).map((e) => e.id));
});
