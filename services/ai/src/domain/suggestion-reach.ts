import { badRequest, type ServiceClient } from '@asistente/kit';
import { customerReach } from './customer-reach.js';
import { jidOfHandle } from './handle-jid.js';
import type { CustomerReach } from './tools/reach.js';

/**
 * The reach of a suggested answer: the conversation's customer, resolved from the chat exactly as an automatic
 * answer's is, and never wider than the contact the inbox matched for it. Where the two disagree (a contact added
 * or changed between both reads), the draft gets no contact at all rather than the wrong one.
 */
export async function suggestionReach(
  services: Pick<ServiceClient, 'call'>,
  workspaceId: string,
  handle: string,
  contactId: string | null,
): Promise<CustomerReach> {
  const jid = jidOfHandle(handle);
  if (!jid) throw badRequest('Destinatario inválido');
  // As the workspace, as the automatic answers: the draft speaks for the business, not for the member who asked.
  const reach = await customerReach(services, workspaceId, jid);
  if (reach.contact && reach.contact.id !== contactId) return { ...reach, contact: undefined, addresses: [] };
  return reach;
}
