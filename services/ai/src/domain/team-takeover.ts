import { InboxConversation } from '@asistente/contracts';
import { ServiceCallError, type ServiceClient } from '@asistente/kit';

/**
 * Whether a person of the team has taken this customer's conversation over in the shared inbox (a member
 * answered or was assigned it, and nobody handed it back): the assistant stays silent there. No conversation
 * yet is no takeover; the inbox failing is the caller's passing failure, so the answer waits rather than
 * risk talking over a colleague.
 */
export async function teamTookOver(services: Pick<ServiceClient, 'call'>, workspaceId: string, handle: string): Promise<boolean> {
  try {
    const conversation = await services.call('inbox', workspaceId, '/conversations/lookup', InboxConversation, { query: { channel: 'whatsapp', handle } });
    return !conversation.assistantActive;
  } catch (error) {
    if (error instanceof ServiceCallError && error.statusCode === 404) return false;
    throw error;
  }
}
