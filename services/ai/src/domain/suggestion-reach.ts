import type { AiSuggestionBody } from '@asistente/contracts';
import type { ServiceClient } from '@asistente/kit';
import { customerReach } from './customer-reach.js';
import type { CustomerReach } from './tools/reach.js';

/**
 * The reach of a suggested answer: the conversation's customer, resolved from their handle exactly as an
 * automatic answer's is, and never wider than the contact the inbox matched for it. Where the two disagree (a
 * contact added or changed between both reads), the draft gets no contact at all rather than the wrong one.
 */
export async function suggestionReach(services: Pick<ServiceClient, 'call'>, workspaceId: string, request: AiSuggestionBody): Promise<CustomerReach> {
  // As the workspace, as the automatic answers: the draft speaks for the business, not for the member who asked.
  const reach = await customerReach(services, workspaceId, { channel: request.channel, handle: request.handle, conversationId: request.conversationId });
  if (reach.contact && reach.contact.id !== request.contactId) return { ...reach, contact: undefined, addresses: [] };
  return reach;
}
