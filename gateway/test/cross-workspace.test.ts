// Cross-workspace: a person who works in two workspaces sees, in each, only that one's data: lists, reads by
// id, writes and deletes of the other's rows answer as if they did not exist (404), in both topologies.
import type { AddressInfo } from 'node:net';
import t from 'tap';
import aiService from '@asistente/ai';
import analyticsService from '@asistente/analytics';
import authService from '@asistente/auth';
import calendarService from '@asistente/calendar';
import contactsService from '@asistente/contacts';
import emailService from '@asistente/email';
import inboxService from '@asistente/inbox';
import { createTestPlatform } from '@asistente/kit/testing';
import teamsService from '@asistente/teams';
import webhooksService from '@asistente/webhooks';
import whatsappService from '@asistente/whatsapp';
import { buildGateway } from '../src/gateway.js';
import { distributedGateway, servicesBehind } from './support/services-behind.js';

const distributed = Boolean(process.env.DATABASE_URL);
const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const SERVICES = [authService, contactsService, calendarService, whatsappService, emailService, teamsService, aiService, analyticsService, webhooksService, inboxService];
const gateway = distributed ? await distributedGateway(t, platform, await servicesBehind(t, platform, SERVICES)) : await buildGateway(platform, 'embedded');
await gateway.listen({ port: 0, host: '127.0.0.1' });
t.teardown(() => gateway.close());
const base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}/api`;

interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: Record<string, unknown>[]; contacts?: Record<string, unknown>[] };
}

async function call(method: string, path: string, authorization?: string, payload?: object): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(authorization ? { authorization } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
    body: payload ? JSON.stringify(payload) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Answer['body'] };
}

let n = 0;
async function register(company: string) {
  const email = `cruce${++n}.${Date.now()}@ejemplo.es`;
  const res = await call('POST', '/auth/register', undefined, { firstName: 'Ana', lastName: 'López', email, password: 'secreto1', company });
  return { userId: (res.body.user as { id: string }).id, email, authorization: `Bearer ${String(res.body.token)}` };
}

/** The session of `person` in `owner`'s workspace, joined through an invitation with `role`. */
async function joinedAs(owner: { authorization: string }, person: { email: string; authorization: string }, role: 'admin' | 'agent'): Promise<string> {
  const invitation = await call('POST', '/workspace/invitations', owner.authorization, { email: person.email, role });
  const token = new URL(String(invitation.body.link)).searchParams.get('token');
  const accepted = await call('POST', '/auth/invitations/accept', person.authorization, { token });
  return `Bearer ${String(accepted.body.token)}`;
}

const north = await register('Taller Norte');
const south = await register('Taller Sur');
const both = await register('Mi casa');
const inNorth = await joinedAs(north, both, 'admin');
const inSouth = await joinedAs(south, both, 'admin');

/** What each workspace holds: a contact, an auto-reply and a webhook, made by its owner. */
async function holdings(owner: { authorization: string }, name: string) {
  const contact = await call('POST', '/contacts', owner.authorization, { firstName: name, lastName: 'Cliente' });
  const reply = await call('POST', '/whatsapp/auto-replies', owner.authorization, { keyword: `hola ${name}`, response: `Somos ${name}` });
  const hook = await call('POST', '/webhooks', owner.authorization, { url: `http://127.0.0.1:9/${name.toLowerCase()}`, events: ['contact.created'] });
  return { contact: String(contact.body.id), reply: String(reply.body.id), hook: String(hook.body.id) };
}
const northHas = await holdings(north, 'Norte');
const southHas = await holdings(south, 'Sur');

t.test('the setup made what it says', async (t) => {
  for (const id of [...Object.values(northHas), ...Object.values(southHas)]) t.match(id, /^[0-9a-f-]{36}$/);
});

t.test('in each workspace, the lists hold only that workspace\'s rows', async (t) => {
  const names = async (session: string) => ((await call('GET', '/contacts', session)).body.contacts ?? []).map((c) => c.firstName);
  t.same(await names(inNorth), ['Norte']);
  t.same(await names(inSouth), ['Sur']);
  const keywords = async (session: string) => ((await call('GET', '/whatsapp/auto-replies', session)).body.data ?? []).map((r) => r.keyword);
  t.same(await keywords(inNorth), ['hola Norte']);
  t.same(await keywords(inSouth), ['hola Sur']);
  const hooks = async (session: string) => ((await call('GET', '/webhooks', session)).body.endpoints as { url: string }[]).map((h) => h.url);
  t.same(await hooks(inNorth), ['http://127.0.0.1:9/norte']);
  t.same(await hooks(inSouth), ['http://127.0.0.1:9/sur']);
});

t.test('the other workspace\'s rows answer 404 to reads, writes and deletes, and stay as they were', async (t) => {
  const tries: [string, string, object?][] = [
    ['GET', `/contacts/${southHas.contact}`],
    ['PUT', `/contacts/${southHas.contact}`, { firstName: 'Intruso', lastName: 'X' }],
    ['GET', `/contacts/${southHas.contact}/timeline`],
    ['DELETE', `/contacts/${southHas.contact}`],
    ['PATCH', `/whatsapp/auto-replies/${southHas.reply}`, { response: 'Intruso' }],
    ['DELETE', `/whatsapp/auto-replies/${southHas.reply}`],
    ['PATCH', `/webhooks/${southHas.hook}`, { description: 'Intruso' }],
    ['GET', `/webhooks/${southHas.hook}/deliveries`],
    ['DELETE', `/webhooks/${southHas.hook}`],
  ];
  const leaks: string[] = [];
  for (const [method, path, payload] of tries) {
    const answer = await call(method, path, inNorth, payload);
    if (answer.status !== 404) leaks.push(`${method} ${path} → ${answer.status}`);
  }
  t.same(leaks, [], `0 leaks in ${tries.length} tries`);
  const contact = await call('GET', `/contacts/${southHas.contact}`, inSouth);
  t.equal(contact.body.firstName, 'Sur', 'untouched');
  t.equal((await call('GET', `/webhooks/${southHas.hook}/deliveries`, inSouth)).status, 200);
});

t.test('the same person\'s own workspace holds neither', async (t) => {
  t.same((await call('GET', '/contacts', both.authorization)).body.contacts, []);
});
