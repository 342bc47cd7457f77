// Adding a channel is one provider file, one registration and one line of the conformance suite: an in-memory channel passes the suite, and once registered its customers' conversations land in the inbox and a member's answer reaches them.
import t from 'tap';
import { createTestPlatform, messagingConformance } from '@asistente/kit/testing';
import { createInboxService } from '../src/app.js';
import { INBOX_CHANNELS } from '../src/channels.js';
import { MemoryNetwork, MemoryProvider, memoryHarness } from './support/memory-channel.js';
import { teamInbox, until, type Body } from './support/team-inbox.js';

const platform = await createTestPlatform(t);

t.test('the in-memory channel passes the messaging conformance suite', async (t) => {
  await messagingConformance(t, memoryHarness());
});

t.test("registered in the inbox, its customer's conversation lands there and a member answers them through it", async (t) => {
  const far = new MemoryNetwork();
  const inbox = createInboxService({ channels: { ...INBOX_CHANNELS, memory: ({ intake }) => new MemoryProvider(intake, far) } });
  const team = await teamInbox(t, platform, [], inbox);
  await far.provider!.connect(team.workspaceId, { account: 'Canal de prueba' });
  const lucia = far.customer(team.workspaceId, 'lucia', 'Lucía Martín');

  await lucia.write({ kind: 'text', text: '¿Podéis cambiarme la cita al viernes?' });
  const listed = await until(async () => {
    const list = await team.owner.call('GET', '/conversations');
    return list.body.data?.find((c) => c.channel === 'memory');
  }, 'the conversation in the inbox');
  t.match(listed, { channel: 'memory', handle: 'memory:lucia', name: 'Lucía Martín', status: 'open', lastMessagePreview: '¿Podéis cambiarme la cita al viernes?', unread: 1 });

  const agent = await team.member('agent', 'Marta', 'Gil');
  const answer = await agent.call('POST', `/conversations/${String(listed.id)}/messages`, { text: 'Claro, el viernes a las 11:00' }, { 'idempotency-key': 'respuesta-1' });
  t.equal(answer.status, 201);
  t.match(answer.body, { author: 'member', authorId: agent.userId, authorName: 'Marta Gil', text: 'Claro, el viernes a las 11:00' });
  const again = await agent.call('POST', `/conversations/${String(listed.id)}/messages`, { text: 'Claro, el viernes a las 11:00' }, { 'idempotency-key': 'respuesta-1' });
  t.equal((again.body as Body).id, answer.body.id, 'the same key answers the same message');
  const received = await lucia.received();
  t.same(received.map((m) => m.text), ['Claro, el viernes a las 11:00'], 'Lucía got the answer once');

  const thread = await agent.call('GET', `/conversations/${String(listed.id)}`);
  t.same((thread.body.messages as Body[]).map((m) => [m.author, m.text]), [
    ['customer', '¿Podéis cambiarme la cita al viernes?'],
    ['member', 'Claro, el viernes a las 11:00'],
  ]);
});
