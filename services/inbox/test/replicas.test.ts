// Two inbox replicas given the same 400 messages at once: each conversation created and assigned once, in fair turns, none lost or doubled.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { MemoryBus } from '@asistente/kit';
import { createTestPlatform, insertAccount } from '@asistente/kit/testing';
import type { ChannelMessage } from '../src/domain/channel.js';
import { ConversationsRepository } from '../src/domain/conversations.repository.js';
import { EntriesRepository } from '../src/domain/entries.repository.js';
import { InboxSettingsRepository } from '../src/domain/inbox-settings.repository.js';
import { Intake } from '../src/domain/intake.js';
import { LiveSignals } from '../src/domain/live-signals.js';

const CONVERSATIONS = 200;
// The embedded database has one connection and one process: its "replicas" would only take turns.
const SKIP = process.env.DATABASE_URL ? false : 'two replicas share a PostgreSQL database only';

t.test(`${CONVERSATIONS} new conversations under round-robin at two replicas`, { skip: SKIP }, async (t) => {
  const platform = await createTestPlatform(t);
  const { sql } = platform.db;
  const workspaceId = await insertAccount(sql);
  const members = ['Ana López', 'Luis Pérez', 'Marta Gil'].map((name) => ({ userId: randomUUID(), name, role: 'agent' as const }));
  const settings = new InboxSettingsRepository(sql);
  await settings.update(workspaceId, { assignment: 'round_robin' });
  // Each replica its own repositories and outbox wake-up, on the one database, as two processes have.
  const replica = () =>
    new Intake({
      sql,
      outbox: platform.outbox('inbox'),
      signals: new LiveSignals(new MemoryBus()),
      conversations: new ConversationsRepository(sql),
      entries: new EntriesRepository(sql),
      settings: new InboxSettingsRepository(sql),
      members: { list: async () => members },
    });
  const [a, b] = [replica(), replica()];
  const at = new Date();
  const messages: ChannelMessage[] = [];
  for (let i = 0; i < CONVERSATIONS; i++) {
    const handle = `+3461${String(i).padStart(7, '0')}`;
    for (const text of ['Hola', '¿Tenéis hueco hoy?']) messages.push({ id: randomUUID(), handle, name: null, direction: 'incoming', direct: true, text, at });
  }
  const started = performance.now();
  // Every message reaches both replicas at once: the shared consumer's redelivery at its worst.
  await Promise.all(
    messages.flatMap((m) => [a, b].map((r) => r.record(workspaceId, 'whatsapp', m, { author: 'customer', authorId: null, live: true }))),
  );
  const ms = performance.now() - started;

  const [counts] = await sql<{ conversations: number; entries: number; assignments: number; events: number }[]>`
    select
      (select count(*)::int from inbox.conversations where user_id = ${workspaceId}) as conversations,
      (select count(*)::int from inbox.entries where user_id = ${workspaceId}) as entries,
      (select count(*)::int from inbox.assignments where user_id = ${workspaceId}) as assignments,
      (select count(*)::int from inbox.outbox where user_id = ${workspaceId} and type = 'conversation.assigned') as events`;
  t.same(counts, { conversations: CONVERSATIONS, entries: 2 * CONVERSATIONS, assignments: CONVERSATIONS, events: CONVERSATIONS }, 'each once');
  const perMember = await sql<{ open: number }[]>`
    select count(*)::int as open from inbox.conversations where user_id = ${workspaceId} and assignee_id is not null group by assignee_id`;
  const loads = perMember.map((r) => r.open).sort();
  t.equal(loads.length, members.length, 'every available member got some');
  t.ok(loads.at(-1)! - loads[0]! <= 1, `fair turns: ${loads.join(' / ')}`);
  const [unread] = await sql<{ total: number }[]>`select sum(unread)::int as total from inbox.conversations where user_id = ${workspaceId}`;
  t.equal(unread!.total, 2 * CONVERSATIONS, 'unread counts each message once');
  t.comment(`${messages.length * 2} deliveries of ${messages.length} messages in ${Math.round(ms)} ms; loads ${loads.join(' / ')}`);
});
