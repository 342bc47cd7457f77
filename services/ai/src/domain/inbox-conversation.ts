import { type AssistantAnswerBody, ConversationExcerpt, inboxRoutes } from '@asistente/contracts';
import { ServiceCallError, type ServiceClient } from '@asistente/kit';
import { chatKeyOf } from './chat-key.js';

/**
 * The team inbox as the assistant works it, as the workspace itself (no member asked): it reads the messages it
 * answers there and answers through it, so it never needs to know a channel's own ids.
 */
export class InboxConversations {
  constructor(private readonly services: Pick<ServiceClient, 'call'>) {}

  /** These entries of the conversation, with the conversation as it is now; undefined once it is gone. */
  async excerpt(workspaceId: string, conversationId: string, entryIds: readonly string[]): Promise<ConversationExcerpt | undefined> {
    return this.read(workspaceId, conversationId, { ids: entryIds.join(',') });
  }

  /** The conversation's chat key (chat-key.ts); undefined once it is gone. */
  async chatKey(workspaceId: string, conversationId: string): Promise<string | undefined> {
    const found = await this.read(workspaceId, conversationId, { latest: 1 });
    return found && chatKeyOf(found.conversation.channel, found.conversation.handle);
  }

  /**
   * Sends the assistant's answer to the customer; `key` names the send, so answering a burst again never sends it
   * twice (a uuid). False when the inbox refused because a person took the conversation over meanwhile.
   */
  async answer(workspaceId: string, conversationId: string, text: string, key: string): Promise<boolean> {
    const body: AssistantAnswerBody = { text, answerId: key };
    try {
      await this.services.call(inboxRoutes.assistantAnswer, workspaceId, { params: { id: conversationId }, body });
      return true;
    } catch (error) {
      if (error instanceof ServiceCallError && error.statusCode === 409 && codeOf(error) === 'ASSISTANT_PAUSED') return false;
      throw error;
    }
  }

  private async read(workspaceId: string, conversationId: string, query: Record<string, string | number>): Promise<ConversationExcerpt | undefined> {
    try {
      return await this.services.call(inboxRoutes.excerpt, workspaceId, { params: { id: conversationId },  query });
    } catch (error) {
      if (error instanceof ServiceCallError && error.statusCode === 404) return undefined;
      throw error;
    }
  }
}

function codeOf(error: ServiceCallError): unknown {
  return (error.body as { code?: unknown } | null)?.code;
}
