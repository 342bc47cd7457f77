// The team inbox's figures per member and per channel (first response, resolution, handled, messages) from conversation.* events alone: out of order, redelivered, raced by two consumers, rebuilt.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import type { DomainEvent, EventData, EventType, TeamFigures } from '@asistente/contracts';
import { createLogger } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, readAccountExportPart, signToken } from '@asistente/kit/testing';
import analyticsService, { createRollupConsumer, rebuildRollups } from '../src/app.js';
import { DAY, event } from './fixtures.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, analyticsService, platform);
const log = createLogger('silent', 'test');
const MINUTE = 60_000;

/**
 * A workspace's week in the inbox, `base` two days ago:
 * - A: a customer writes, the rule assigns Ana, she answers after 2 minutes and resolves it at 10;
 * - L: Ana answers after 4 minutes and resolves at 20 (unassigned); the customer writes again, which reopens it,
 *   the rule assigns Luis, he answers after 6 minutes and resolves it 30 minutes after it reopened;
 * - X: a website visitor's (channel web), answered only by the assistant (after 5 s) and then a keyword rule;
 *   never resolved;
 * - H: a WhatsApp history sync (its customer's message not live: never open), the
 *   phone's old answer, and Ana writing there later: handled by her, no first response of anyone;
 * - O: 20 days earlier, Luis answers after 30 minutes and resolves at 60 (in 30 days, not in 7).
 */
function inboxWeek(workspace: string, ana: string, luis: string, now = Date.now()): DomainEvent[] {
  const base = now - 2 * DAY;
  const say = <T extends EventType>(type: T, conversationId: string, ms: number, data: Omit<EventData<T>, 'conversationId'>, actorId?: string) => {
    const e = event(type, workspace, new Date(base + ms), { conversationId, ...data } as EventData<T>);
    return actorId ? { ...e, actorId } : e;
  };
  const [a, l, x, h, o] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const channelOf = (id: string) => (id === x ? 'web' : 'whatsapp');
  const received = (id: string, ms: number, live = true) => say('conversation.message.received', id, ms, { entryId: randomUUID(), channel: channelOf(id), live });
  const sent = (id: string, ms: number, author: 'member' | 'assistant' | 'keyword' | 'phone', actorId?: string) =>
    say('conversation.message.sent', id, ms, { entryId: randomUUID(), channel: channelOf(id), author }, actorId);
  const status = (id: string, ms: number, from: 'open' | 'resolved', to: 'open' | 'resolved', actorId?: string) =>
    say('conversation.status_changed', id, ms, { from, to }, actorId);
  const assigned = (id: string, ms: number, assigneeId: string) => say('conversation.assigned', id, ms, { assigneeId, by: 'rule' });
  return [
    received(a, 0),
    assigned(a, 1, ana),
    sent(a, 2 * MINUTE, 'member', ana),
    status(a, 10 * MINUTE, 'open', 'resolved', ana),

    received(l, 60 * MINUTE),
    sent(l, 64 * MINUTE, 'member', ana),
    status(l, 80 * MINUTE, 'open', 'resolved', ana),
    received(l, 200 * MINUTE),
    status(l, 200 * MINUTE + 1, 'resolved', 'open'),
    assigned(l, 200 * MINUTE + 2, luis),
    sent(l, 206 * MINUTE, 'member', luis),
    status(l, 230 * MINUTE, 'open', 'resolved', luis),

    received(x, 300 * MINUTE),
    sent(x, 300 * MINUTE + 5000, 'assistant'),
    sent(x, 301 * MINUTE, 'keyword'),

    received(h, 400 * MINUTE, false),
    sent(h, 400 * MINUTE + 1000, 'phone'),
    sent(h, 500 * MINUTE, 'member', ana),

    received(o, -20 * DAY),
    sent(o, -20 * DAY + 30 * MINUTE, 'member', luis),
    status(o, -20 * DAY + 60 * MINUTE, 'open', 'resolved', luis),
  ];
}

/** What inboxWeek must come to, worked out by hand. */
function expected(ana: string, luis: string, period: '7d' | '30d'): TeamFigures {
  const week = period === '7d';
  return {
    members: [
      { userId: ana, firstResponseSeconds: 180, resolutionSeconds: 900, handled: 3 }, // [120, 240], [600, 1200], A L H
      week
        ? { userId: luis, firstResponseSeconds: 360, resolutionSeconds: 1800, handled: 1 }
        : { userId: luis, firstResponseSeconds: 1080, resolutionSeconds: 2700, handled: 2 }, // + O: [360, 1800], [1800, 3600]
    ],
    assistant: { firstResponseSeconds: 5, handled: 1 },
    workspace: week
      ? { firstResponseSeconds: 180, resolutionSeconds: 1200, handled: 4 } // [5, 120, 240, 360], [600, 1200, 1800], A L X H
      : { firstResponseSeconds: 240, resolutionSeconds: 1500, handled: 5 }, // + 1800 and 3600, + O
    channels: [
      week
        ? { channel: 'whatsapp', received: 3, sent: 5, firstResponseSeconds: 240 } // A, L twice (H is history); [120, 240, 360]
        : { channel: 'whatsapp', received: 4, sent: 6, firstResponseSeconds: 300 }, // + O: [120, 240, 360, 1800]
      { channel: 'web', received: 1, sent: 2, firstResponseSeconds: 5 },
    ],
  };
}

async function figures(authorization: string, period: '7d' | '30d' = '7d'): Promise<TeamFigures> {
  const res = await app.inject({ url: `/analytics/team?period=${period}`, headers: { authorization } });
  if (res.statusCode !== 200) throw new Error(`GET /analytics/team: ${res.statusCode} ${res.body}`);
  return res.json<TeamFigures>();
}

const openings = (workspace: string) =>
  platform.db.sql`select * from analytics.conversation_openings where user_id = ${workspace} order by conversation_id, opened_at`;

t.test('medians and handled per member, the assistant and the workspace, whatever order the events come in', async (t) => {
  const me = signToken(app);
  const [ana, luis] = [randomUUID(), randomUUID()];
  const events = inboxWeek(me.userId, ana, luis);
  // Newest first, three at a time: every answer before its question, the reopening before the first resolution.
  const reversed = [...events].reverse();
  for (let i = 0; i < reversed.length; i += 3) await platform.bus.publish(reversed.slice(i, i + 3) as never[]);

  t.same(await figures(me.authorization), expected(ana, luis, '7d'), '7 días');
  t.same(await figures(me.authorization, '30d'), expected(ana, luis, '30d'), '30 días: the older conversation too');
  t.same(await figures(signToken(app).authorization), {
    members: [],
    assistant: { firstResponseSeconds: null, handled: 0 },
    workspace: { firstResponseSeconds: null, resolutionSeconds: null, handled: 0 },
    channels: [{ channel: 'whatsapp', received: 0, sent: 0, firstResponseSeconds: null }, { channel: 'web', received: 0, sent: 0, firstResponseSeconds: null }],
  }, "another workspace's are empty");

  const before = await openings(me.userId);
  t.equal(before.length, 5, 'A, L twice, X and O opened; the history sync H did not');
  await rebuildRollups(platform.db.sql, 4);
  t.same(await openings(me.userId), before, 'a rebuild from the recorded events derives the same rows');
  t.same(await figures(me.authorization), expected(ana, luis, '7d'), 'and the same figures');

  const { files } = await readAccountExportPart(app, '/analytics/account-export', me.authorization);
  const lines = (name: string) => files.get(name)!.toString('utf8').trimEnd().split('\r\n');
  const exported = lines('conversaciones.csv');
  t.equal(exported[0], 'conversacion,abierta,primera_respuesta,autor_primera_respuesta,miembro_primera_respuesta,asignada_a,resuelta,resuelta_por');
  t.equal(exported.length, 1 + 5, '"Descargar mis datos" has every opening');
  t.ok(exported.some((line) => line.endsWith(`,member,${ana},${ana},${new Date(events[3]!.occurredAt).toISOString()},${ana}`)), "A: Ana's answer, assignment and resolution");
  t.same(lines('respuestas.csv').filter((line) => line.includes(ana)).length, 3, 'and who answered each conversation last when');
});

t.test('a redelivered event changes nothing', async (t) => {
  const me = signToken(app);
  const [ana, luis] = [randomUUID(), randomUUID()];
  const events = inboxWeek(me.userId, ana, luis);
  const consumer = createRollupConsumer(platform.db.sql, log);
  t.match(await consumer.handle(events), { applied: events.length, duplicates: 0 });
  const rows = await openings(me.userId);
  // A crash between commit and ack: the bus delivers the reopening and a resolution again, alone and in a batch.
  t.match(await consumer.handle([events[8]]), { applied: 0, duplicates: 1 });
  t.match(await consumer.handle([events[3], events[8], events[7]]), { applied: 0, duplicates: 3 });
  t.same(await openings(me.userId), rows, 'the same rows');
  t.same(await figures(me.authorization), expected(ana, luis, '7d'), 'the same figures');
});

t.test('two consumers racing on the same conversations apply each event once and derive them whole', async (t) => {
  const workspaces = [signToken(app), signToken(app), signToken(app)];
  const members = workspaces.map(() => [randomUUID(), randomUUID()] as const);
  const events = workspaces.flatMap((w, i) => inboxWeek(w.userId, ...members[i]!));
  const [one, two] = [createRollupConsumer(platform.db.sql, log), createRollupConsumer(platform.db.sql, log)];
  // Each takes half of every conversation's events at once, then both are handed everything again.
  const halves = await Promise.all([one.handle(events.filter((_, i) => i % 2 === 0)), two.handle(events.filter((_, i) => i % 2 === 1))]);
  const again = await Promise.all([one.handle(events), two.handle([...events].reverse())]);
  t.equal(halves[0].applied + halves[1].applied, events.length, 'every event applied');
  t.equal(again[0].applied + again[1].applied, 0, 'none twice');
  for (const [i, w] of workspaces.entries()) t.same(await figures(w.authorization), expected(...members[i]!, '7d'), `workspace ${i + 1}`);
});
