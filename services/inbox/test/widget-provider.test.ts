// The website's chat as a provider of the messaging port: it passes the conformance suite with visitors writing and reading through the public routes, and the owner switches it off and on again without losing its key.
import t from 'tap';
import type { WidgetBody } from '@asistente/contracts';
import type { ChannelIntake } from '@asistente/kit';
import { createTestPlatform, insertAccount, messagingConformance, type DeliveredMessage, type FarCustomer, type MessagingHarness } from '@asistente/kit/testing';
import { WidgetProvider } from '../src/adapters/widget-provider.js';
import { createInboxService } from '../src/app.js';
import { INBOX_CHANNELS } from '../src/channels.js';
import { teamInbox, type Body } from './support/team-inbox.js';

const platform = await createTestPlatform(t);
const SITE = 'https://www.peluqueria-lucia.es';
const WIDGET: WidgetBody = { name: 'Peluquería Lucía', color: '#0E7490', greeting: '¡Hola! ¿En qué podemos ayudarte?', allowedOrigins: [SITE] };

type Team = Awaited<ReturnType<typeof teamInbox>>;

/** Both intakes hear what a visitor wrote: the inbox's records it, the suite's watches it. */
const both = (first: ChannelIntake, second: ChannelIntake): ChannelIntake => ({
  async received(workspaceId, messages) {
    await first.received(workspaceId, messages);
    await second.received(workspaceId, messages);
  },
  async receipts(workspaceId, receipts) {
    await first.receipts(workspaceId, receipts);
    await second.receipts(workspaceId, receipts);
  },
});

/** A call as the widget makes it from the owner's page: JSON as text/plain, the page's origin. */
async function visitorCall(team: Team, method: 'GET' | 'POST', url: string, payload?: object) {
  const response = await team.app.inject({
    method,
    url: `/api${url}`,
    headers: { origin: SITE, ...(payload ? { 'content-type': 'text/plain;charset=UTF-8' } : {}) },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
  return { status: response.statusCode, body: (response.body ? response.json() : {}) as Body };
}

/** A visitor of the workspace's widget who left their name, writing and reading as the widget does. */
async function visitor(team: Team, workspaceId: string, name: string): Promise<FarCustomer> {
  const [widget] = await team.sql<{ publicKey: string }[]>`select public_key from inbox.widgets where user_id = ${workspaceId}`;
  const key = widget!.publicKey;
  const started = await visitorCall(team, 'POST', `/widget/${key}/visitors`, {});
  const token = String(started.body.token);
  await visitorCall(team, 'POST', `/widget/${key}/profile`, { token, name });
  return {
    address: String(started.body.visitorId),
    name,
    async write(content) {
      if (content.kind !== 'text') throw new Error('the widget writes text only');
      const written = await visitorCall(team, 'POST', `/widget/${key}/messages`, { token, text: content.text });
      if (written.status !== 201) throw new Error(`the visitor's message answered ${written.status}`);
    },
    async received(): Promise<DeliveredMessage[]> {
      const thread = await visitorCall(team, 'GET', `/widget/${key}/messages?token=${encodeURIComponent(token)}`);
      const lines = (thread.body.messages ?? []) as Body[];
      return lines.filter((m) => m.from === 'business').map((m) => ({ id: String(m.id), text: String(m.text), media: null }));
    },
  };
}

t.test('the website chat passes the messaging conformance suite', async (t) => {
  let team: Team | undefined;
  const harness: MessagingHarness<WidgetBody> = {
    name: 'website chat',
    capabilities: { media: false, receipts: false },
    async provider(intake) {
      let widget: WidgetProvider | undefined;
      const inbox = createInboxService({ channels: { ...INBOX_CHANNELS, web: (parts) => (widget = new WidgetProvider({ ...parts, intake: both(parts.intake, intake) })) } });
      team = await teamInbox(t, platform, [], inbox);
      return widget!;
    },
    workspace: () => insertAccount(platform.db.sql),
    settings: () => WIDGET,
    customer: (workspaceId) => visitor(team!, workspaceId, 'Carmen Ruiz'),
  };
  await messagingConformance(t, harness);
});

t.test('switched off, visitors get no chat and members cannot answer; switched on, the same key works again', async (t) => {
  const team = await teamInbox(t, platform);
  const created = await team.owner.call('POST', '/widget', WIDGET);
  t.equal(created.body.enabled, true, 'a new chat is on');
  const key = String(created.body.publicKey);
  const carmen = await visitor(team, team.workspaceId, 'Carmen Ruiz');
  await carmen.write({ kind: 'text', text: '¿Hacéis mechas?' });
  const [conversation] = (await team.owner.call('GET', '/conversations?channel=web')).body.data ?? [];

  const off = await team.owner.call('PATCH', '/widget', { enabled: false });
  t.match(off.body, { enabled: false, publicKey: key });
  const refused = await visitorCall(team, 'GET', `/widget/${key}/config`);
  t.equal(refused.status, 403);
  t.equal(refused.body.message, 'El chat de este negocio no está disponible ahora mismo');
  const answer = await team.owner.call('POST', `/conversations/${String(conversation!.id)}/messages`, { text: 'Sí, claro' });
  t.equal(answer.status, 409);
  t.equal(answer.body.message, 'El chat web está desactivado: actívalo en Configuración → Chat web');
  t.same(await carmen.received(), [], 'nothing reached the visitor');

  t.match((await team.owner.call('PATCH', '/widget', { enabled: true })).body, { enabled: true, publicKey: key });
  t.equal((await team.owner.call('POST', `/conversations/${String(conversation!.id)}/messages`, { text: 'Sí, claro' })).status, 201);
  t.same((await carmen.received()).map((m) => m.text), ['Sí, claro'], 'the visitor reads the answer under the same key');
});
