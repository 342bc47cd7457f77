import { whatsappRoutes } from '@asistente/contracts';
import type { ServiceCaller, ServiceClient } from '@asistente/kit';

/**
 * The handles of WhatsApp chats named by JID (the API's `jid`, pauses kept from before handles), asked of the
 * WhatsApp service: it alone reads JIDs. A JID it does not answer for is left out.
 */
export async function handlesOfJids(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, jids: readonly string[]): Promise<Map<string, string>> {
  if (jids.length === 0) return new Map();
  const answer = await services.call(whatsappRoutes.handles, caller, { query: { jids: jids.join(',') } });
  return new Map(Object.entries(answer.handles));
}

/** One chat's handle; undefined when the WhatsApp service names none for it. */
export async function handleOfJid(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, jid: string): Promise<string | undefined> {
  return (await handlesOfJids(services, caller, [jid])).get(jid);
}
