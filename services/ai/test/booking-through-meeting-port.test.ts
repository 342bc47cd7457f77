// The assistant books through the meeting port: with only Microsoft connected, its booking tool is offered and gives the customer a Teams link (real calendar and teams services, Graph peer).
import t from 'tap';
import calendarService from '@asistente/calendar';
import teamsService from '@asistente/teams';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { GraphPeer } from '../../teams/test/peer/graph-peer.js';
import { trustedPeerTls } from '../../teams/test/peer/trusted.js';
import { connectMicrosoft } from '../../calendar/test/support/meeting-harnesses.js';
import { offeredTools } from '../src/domain/tools/registry.js';
import type { ToolContext } from '../src/domain/tools/tool.js';

// Runs in a child that trusts the Graph peer's self-signed CA (see trusted.ts); the first run only spawns it.
const tls = await trustedPeerTls(t, import.meta.url);
if (tls) await suite(tls);

async function suite(peerTls: NonNullable<typeof tls>): Promise<void> {
  const graph = await new GraphPeer(peerTls).start();
  t.teardown(() => graph.stop());
  const outlook = graph.addCalendar('Calendario', '#0078d4', true);
  // No Google settings at all: Microsoft is the only provider this workspace can have.
  const platform = await createTestPlatform(t, { config: { ...graph.config(), PUBLIC_URL: 'http://app.test' } });
  const app = await buildServicesApp(t, [calendarService, teamsService], platform);

  // A weekday two to eight days ahead, 10:00-10:30 UTC: inside the default working hours, nothing in Outlook then.
  const start = new Date(Date.now() + 2 * 86_400_000);
  while (start.getUTCDay() === 0 || start.getUTCDay() === 6) start.setUTCDate(start.getUTCDate() + 1);
  start.setUTCHours(10, 0, 0, 0);
  const end = new Date(start.getTime() + 30 * 60_000);

  const customerContext = (userId: string): ToolContext => ({
    workspaceId: userId,
    caller: userId,
    services: platform.services,
    reach: { kind: 'customer', conversationId: null, chatKey: 'whatsapp:+34600000009', contact: undefined, addresses: ['marta@example.com'] },
    bookings: { reserve: async () => true, release: async () => undefined },
  });

  t.test('only Microsoft connected: the booking tool is offered and the customer gets a Teams link', async (t) => {
    const { userId, authorization } = signToken(app);
    const before = customerContext(userId);
    t.notOk((await offeredTools(['calendar'], before, { booking: true })).some((tool) => tool.name === 'agendar_reunion'), 'nothing connected: no booking');

    await connectMicrosoft(app, authorization);
    const context = customerContext(userId);
    const tools = await offeredTools(['calendar'], context, { booking: true });
    t.same(tools.map((tool) => tool.name), ['listar_reuniones_del_cliente', 'buscar_huecos_libres', 'agendar_reunion']);

    const booking = tools.find((tool) => tool.name === 'agendar_reunion')!;
    const outcome = await booking.run(context, { titulo: 'Llamada con Marta', inicio: start.toISOString(), fin: end.toISOString() });
    t.match(outcome.result, { agendada: true, inicio: start.toISOString(), fin: end.toISOString(), enlace: /^https:\/\/teams\.microsoft\.com\/l\/meetup-join\// });

    const stored = outlook.events.at(-1)!;
    t.equal(stored.subject, 'Llamada con Marta');
    t.equal(stored.isOnlineMeeting, true, 'a Teams online meeting in Outlook');
    t.equal(stored.onlineMeetingProvider, 'teamsForBusiness');
    t.same(stored.attendees?.map((a) => a.emailAddress?.address), ['marta@example.com'], "the chat's customer, invited");
  });
}

