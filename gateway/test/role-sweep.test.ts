// Roles under attack: an admin and an agent of a workspace try every route of the API document that the role
// table closes to them, plainly and respelled, at the gateway and at the services alone; none answers.
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import aiService from '@asistente/ai';
import analyticsService from '@asistente/analytics';
import authService from '@asistente/auth';
import calendarService from '@asistente/calendar';
import contactsService from '@asistente/contacts';
import { PERSONAL_TOKEN_SCOPES, ROLE_REFUSED, roleAllows, type WorkspaceRole } from '@asistente/contracts';
import emailService from '@asistente/email';
import inboxService from '@asistente/inbox';
import { type App } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import teamsService from '@asistente/teams';
import webhooksService from '@asistente/webhooks';
import whatsappService from '@asistente/whatsapp';
import { collectApiDocument } from '../src/api-reference/collect-document.js';
import { buildGateway } from '../src/gateway.js';
import { rawRequest, type RawAnswer } from './support/raw-request.js';
import { distributedGateway, servicesBehind } from './support/services-behind.js';
import { API_PREFIX } from '../src/routing-table.js';
import { tokenOperations } from './support/api-operations.js';

/** Embedded (no DATABASE_URL): the one gateway mounting every service. With DATABASE_URL: a distributed gateway in front of them. */
const distributed = Boolean(process.env.DATABASE_URL);
const platform = await createTestPlatform(t);
const SERVICES = [authService, contactsService, calendarService, whatsappService, emailService, teamsService, aiService, analyticsService, webhooksService, inboxService];

async function listening(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

// The services alone, as their processes serve them behind a gateway (embedded too: the same plugins, no gateway hook).
// The services alone, as their processes serve them behind a gateway (embedded too: the same plugins, no gateway hook).
const services = await servicesBehind(t, platform, SERVICES);
const gateway = distributed ? await distributedGateway(t, platform, services) : await buildGateway(platform, 'embedded');
const base = await listening(gateway);
const { paths } = (distributed ? await collectApiDocument() : gateway.swagger()) as { paths: Record<string, Record<string, unknown>> };

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
t.teardown(() => agent.destroy());

type Answer = RawAnswer;

const send = (method: string, path: string, authorization: string, payload?: object, to = base): Promise<Answer> =>
  rawRequest(agent, to, method, path, authorization, payload);

let n = 0;
async function register(): Promise<{ userId: string; authorization: string }> {
  const email = `rol${++n}.${Date.now()}@ejemplo.es`;
  const res = await send('POST', `${API_PREFIX}/auth/register`, '', { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' });
  const user = res.body?.user as { id: string };
  return { userId: user.id, authorization: `Bearer ${String(res.body?.token)}` };
}

/** A person of `role` in the owner's workspace, and their session there (what an accepted invitation gives). */
async function member(ownerId: string, role: 'admin' | 'agent'): Promise<string> {
  const person = await register();
  await platform.db.sql`insert into auth.members (workspace_id, user_id, role) values (${ownerId}, ${person.userId}, ${role})`;
  const switched = await send('POST', `${API_PREFIX}/auth/switch`, person.authorization, { workspaceId: ownerId });
  if ((switched.body?.workspace as { role?: string } | undefined)?.role !== role) throw new Error(`no ${role} session: ${switched.status}`);
  return `Bearer ${String(switched.body?.token)}`;
}

const owner = await register();
const sessions = new Map<WorkspaceRole, string>([
  ['admin', await member(owner.userId, 'admin')],
  ['agent', await member(owner.userId, 'agent')],
]);

const operations = tokenOperations(paths, () => '6f1c5b7e-8d0a-4a8e-9a55-0a4b1f0d2c3e');

/** The same path as the router will see it: each letter escaped, and through a dot-segment. */
const respelled = (rest: string) => [
  `${API_PREFIX}${rest}`,
  `${API_PREFIX}${rest.replace(/[a-z]/gi, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
  `${API_PREFIX}/zz/..${rest}`,
];

const refusedByRole = (answer: Answer) => answer.status === 403 && answer.code === 'ROLE_FORBIDDEN' && answer.message === ROLE_REFUSED;

/** A personal token with every scope, made by the member of `session` in the workspace it acts in. */
async function everyScopeToken(session: string): Promise<string> {
  const created = await send('POST', `${API_PREFIX}/auth/tokens`, session, { name: 'Todo', scopes: PERSONAL_TOKEN_SCOPES });
  return `Bearer ${String(created.body?.token)}`;
}

t.test('no admin or agent reaches a route the role table closes to them, however the path is spelled', async (t) => {
  t.ok(operations.length > 100, `${operations.length} operations of the document`);
  let tries = 0;
  const breaches: string[] = [];
  for (const [role, authorization] of sessions) {
    for (const { method, rest } of operations.filter((o) => !roleAllows(role, o.method, o.rest))) {
      for (const path of respelled(rest)) {
        tries++;
        const answer = await send(method, path, authorization);
        if (!refusedByRole(answer)) breaches.push(`${role} ${method} ${path} → ${answer.status} ${answer.code ?? ''}`);
      }
    }
  }
  t.ok(tries > 50, `${tries} tries`);
  t.same(breaches, [], `0 answers outside the role table in ${tries} tries`);
  t.comment(`${distributed ? 'distributed' : 'embedded'}: ${operations.length} operations, ${tries} tries outside the roles, ${breaches.length} answered`);
});

t.test('the services refuse on their own what the role table closes, whatever the gateway did', async (t) => {
  const breaches: string[] = [];
  let tries = 0;
  for (const [role, authorization] of sessions) {
    for (const { method, rest } of operations.filter((o) => !roleAllows(role, o.method, o.rest))) {
      tries++;
      const answer = await send(method, rest, authorization, undefined, services);
      if (!refusedByRole(answer)) breaches.push(`${role} ${method} ${rest} → ${answer.status} ${answer.code ?? ''}`);
    }
  }
  t.same(breaches, [], `0 answers outside the role table in ${tries} tries at the services`);
});

t.test('what the table opens to an agent answers: the shared contacts, the inbox, the assistant, analytics', async (t) => {
  const agentSession = sessions.get('agent')!;
  for (const path of ['/contacts', '/contacts/stats', '/whatsapp/conversations', '/ai/assistant', '/analytics/dashboard', '/workspace', '/workspace/members']) {
    const answer = await send('GET', `${API_PREFIX}${path}`, agentSession);
    t.equal(answer.status, 200, `GET ${path}`);
  }
  const created = await send('POST', `${API_PREFIX}/contacts`, agentSession, { firstName: 'Luis', lastName: 'Gómez' });
  t.equal(created.status, 201, 'an agent adds a contact to the shared list');
  const seen = await send('GET', `${API_PREFIX}/contacts/${String(created.body?.id)}`, owner.authorization);
  t.equal(seen.status, 200, 'the owner sees it: the list is the workspace\'s');
  const ownerAdds = await send('POST', `${API_PREFIX}/contacts`, owner.authorization, { firstName: 'Marta', lastName: 'Ruiz' });
  const byAdmin = await send('GET', `${API_PREFIX}/contacts/${String(ownerAdds.body?.id)}`, sessions.get('admin')!);
  t.equal(byAdmin.status, 200, 'and the admin sees the owner\'s');
});

t.test('a member\'s personal token, whatever its scopes, reaches nothing the member\'s role does not', async (t) => {
  let tries = 0;
  const breaches: string[] = [];
  for (const [role, session] of sessions) {
    const token = await everyScopeToken(session);
    for (const { method, rest } of operations.filter((o) => !roleAllows(role, o.method, o.rest))) {
      tries++;
      const answer = await send(method, `${API_PREFIX}${rest}`, token);
      // Refused by the role table, or before it by the scope table (routes no token reaches at all).
      const refused = refusedByRole(answer) || (answer.status === 403 && answer.code === 'TOKEN_SCOPE');
      if (!refused) breaches.push(`${role} token ${method} ${rest} → ${answer.status} ${answer.code ?? ''}`);
    }
  }
  t.ok(tries > 30, `${tries} tries`);
  t.same(breaches, [], `0 answers outside the role in ${tries} tries with every scope`);
  const agentToken = await everyScopeToken(sessions.get('agent')!);
  t.equal((await send('GET', `${API_PREFIX}/contacts`, agentToken)).status, 200, 'within the role, the scopes open the route');
});
