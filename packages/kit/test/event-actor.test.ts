// Proves who did it travels with what was done: an event written while a member's request is answered names
// that member (actorId) in the outbox and on the bus; one written by no request, or by a sibling's call as the
// workspace itself, names no one.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { Type } from '@sinclair/typebox';
import { route } from '@asistente/contracts';
import { runAsMember } from '../src/auth/acting-member.js';
import { createEvent, requireAuth, type App, type EventEnvelope, type ServicePlugin } from '../src/index.js';
import { buildServicesApp, createTestPlatform, insertAccount } from '../src/testing/index.js';

t.test('the member whose request wrote an event is its actor; the system and the workspace\'s own calls are no one', async (t) => {
  const platform = await createTestPlatform(t);
  const received: EventEnvelope[] = [];
  await platform.bus.subscribe('actors', async (events) => {
    received.push(...events);
  });
  const outbox = platform.outbox('contacts');
  const writer: ServicePlugin = async (fastify) => {
    const app = fastify as unknown as App;
    requireAuth(app);
    app.post('/contacts/escribe', async (request) => {
      // A domain call several awaits down, in a transaction, as a service's would be.
      const event = createEvent('contacts.contact.deleted', request.user.workspaceId, { contactId: randomUUID() });
      await platform.db.sql.begin(async (tx) => {
        await tx`select 1`;
        await outbox.append(tx, [event]);
      });
      return { id: event.id };
    });
  };
  const app = await buildServicesApp(t, [writer], platform);
  const workspaceId = await insertAccount(platform.db.sql);
  const agentId = await insertAccount(platform.db.sql);
  await platform.db.sql`insert into auth.members (workspace_id, user_id, role) values (${workspaceId}, ${agentId}, 'agent')`;
  const token = app.jwt.sign({ sub: agentId, wid: workspaceId, role: 'agent', jti: randomUUID(), ims: Date.now() });

  const res = await app.inject({ method: 'POST', url: '/api/contacts/escribe', headers: { authorization: `Bearer ${token}` } });
  t.equal(res.statusCode, 200);
  const byMember: string = res.json().id;
  const bySystem = createEvent('contacts.contact.deleted', workspaceId, { contactId: randomUUID() });
  await platform.db.sql.begin((tx) => outbox.append(tx, [bySystem]));

  // A sibling's call as the workspace itself (WhatsApp's contact sync): under the founder's id, yet no member's,
  // though a member's request made it (embedded, the call is even answered inside that request).
  const asWorkspace = () => platform.services.call(route({ service: 'contacts', method: 'POST', path: '/contacts/escribe', response: Type.Unknown() }), workspaceId);
  const byWorkspace = ((await runAsMember(agentId, asWorkspace)) as { id: string }).id;
  const rows = await platform.db.sql<{ id: string; actorId: string | null }[]>`select id, actor_id from contacts.outbox where id in ${platform.db.sql([byMember, bySystem.id, byWorkspace])}`;
  t.same(Object.fromEntries(rows.map((r) => [r.id, r.actorId])), { [byMember]: agentId, [bySystem.id]: null, [byWorkspace]: null });
  await platform.relay.drain();
  while (received.length < 3) await new Promise((resolve) => setImmediate(resolve));
  const relayed = Object.fromEntries(received.map((e) => [e.id, e]));
  t.equal(relayed[byMember]?.actorId, agentId, 'on the bus, the envelope names the member');
  t.equal(relayed[byMember]?.userId, workspaceId, 'and the data stays the workspace\'s');
  t.notOk('actorId' in relayed[bySystem.id]!, 'what no member asked names no one');
});
