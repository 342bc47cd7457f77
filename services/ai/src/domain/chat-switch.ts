import { type AiChatState, InboxConversation, inboxRoutes } from '@asistente/contracts';
import { badRequest, callerOf, type ActingMember, type ServiceClient } from '@asistente/kit';
import { chatKeyOf } from './chat-key.js';
import type { ChatStateService } from './chat-state.service.js';
import { handleOfJid } from './whatsapp-handles.js';

const TEAM: AiChatState = { paused: true, pausedUntil: null, reason: 'team' };

/**
 * The assistant's switch on a WhatsApp chat, as the WhatsApp screen names chats (by JID): its own pauses and caps
 * under the chat's key, and the team inbox's, where a person who took the conversation over keeps it silent.
 * Resuming hands the conversation back to the assistant there too: one switch, as the owner sees it.
 */
export class ChatSwitch {
  constructor(
    private readonly chats: ChatStateService,
    private readonly services: Pick<ServiceClient, 'call'>,
  ) {}

  async state(member: ActingMember, jid: string): Promise<AiChatState> {
    const { handle, chatKey } = await this.chatOf(member.workspaceId, jid);
    const own = await this.chats.state(member.workspaceId, chatKey);
    return own.paused ? own : withTeam(own, await this.conversationOf(member, handle));
  }

  async setPaused(member: ActingMember, jid: string, paused: boolean): Promise<AiChatState> {
    const { handle, chatKey } = await this.chatOf(member.workspaceId, jid);
    const own = await this.chats.setPaused(member.workspaceId, chatKey, paused);
    if (paused) return own;
    let conversation = await this.conversationOf(member, handle);
    if (conversation && !conversation.assistantActive) {
      conversation = await this.services.call(inboxRoutes.update, callerOf(member), { params: { id: conversation.id }, body: { assistantActive: true } });
    }
    return own.paused ? own : withTeam(own, conversation);
  }

  /** The chat's handle, which the WhatsApp service names (asked as the workspace: a mapping, no member's data). */
  private async chatOf(workspaceId: string, jid: string): Promise<{ handle: string; chatKey: string }> {
    const handle = await handleOfJid(this.services, workspaceId, jid);
    if (!handle) throw badRequest('Identificador de chat de WhatsApp inválido');
    return { handle, chatKey: chatKeyOf('whatsapp', handle) };
  }

  /** The customer's conversation in the inbox; none yet (or the inbox unreachable) leaves the assistant's own state. */
  private async conversationOf(member: ActingMember, handle: string): Promise<InboxConversation | undefined> {
    return this.services
      .call(inboxRoutes.lookup, callerOf(member), { query: { channel: 'whatsapp', handle } })
      .catch(() => undefined);
  }
}

/** The assistant's own state, unless a person of the team holds the conversation in the inbox. */
function withTeam(own: AiChatState, conversation: InboxConversation | undefined): AiChatState {
  return conversation && !conversation.assistantActive ? TEAM : own;
}
