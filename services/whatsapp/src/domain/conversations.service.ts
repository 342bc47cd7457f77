import type { ChatHandles, ChatHandlesQuery, ConversationList, ConversationsQuery, MessageList, MessagesById, MessagesByIdQuery, MessagesQuery, WhatsAppStats } from '@asistente/contracts';
import { CoalescedRead } from '@asistente/kit';
import { handleOf } from './handle.js';
import { toChannelMessage, toMessage } from './message-view.js';
import type { AccountsRepository } from './accounts.repository.js';
import type { ChatRow, MessagesRepository } from './messages.repository.js';
import { jidCandidates, toE164 } from './phone.js';

function toConversation(row: ChatRow) {
  return {
    id: row.jid,
    name: row.name ?? row.phone ?? row.jid.split('@')[0]!,
    phone: row.phone,
    isGroup: row.isGroup,
    lastAt: row.lastAt?.toISOString() ?? null,
    lastMessage: row.lastDirection ? { text: row.lastText ?? '', direction: row.lastDirection } : null,
    unread: row.unread,
  };
}

/** Reads: the inbox, a chat's history (page 1 newest; opening it marks it read) and the figures. */
export class ConversationsService {
  /** The same inbox page asked by several clients at once (tabs, devices, polls) is read once for all of them. */
  private readonly pages = new CoalescedRead<ConversationList>();

  constructor(
    private readonly messages: MessagesRepository,
    private readonly accounts: AccountsRepository,
  ) {}

  list(userId: string, query: ConversationsQuery): Promise<ConversationList> {
    return this.pages.read(JSON.stringify([userId, query.search ?? null, query.limit, query.page]), async () => {
      const { rows, total } = await this.messages.conversations(userId, query.search, query.limit, (query.page - 1) * query.limit);
      return { data: rows.map(toConversation), pagination: { total, page: query.page, limit: query.limit } };
    });
  }

  async history(userId: string, query: MessagesQuery): Promise<MessageList> {
    const empty = { data: [], pagination: { total: 0, page: query.page, limit: query.limit } };
    let chatId: string | null = null;
    if (query.jid || query.phoneNumber) {
      const chat = query.jid ? await this.messages.findChatByJid(userId, query.jid.trim()) : await this.chatOfPhone(userId, query.phoneNumber!);
      if (!chat) return empty;
      chatId = chat.id;
      if (query.page === 1 && chat.unread > 0) await this.messages.markRead(chat.id);
    }
    const { rows, total } = await this.messages.messages(userId, chatId, query.limit, (query.page - 1) * query.limit);
    return { data: rows.map(toMessage), pagination: { total, page: query.page, limit: query.limit } };
  }

  /**
   * The messages the events named, each with its chat's handle and name: how the assistant reads a customer's
   * burst and the team inbox learns a message without knowing JIDs (no chat is marked read).
   */
  async byId(userId: string, query: MessagesByIdQuery): Promise<MessagesById> {
    const ids = [...new Set(query.ids.toLowerCase().split(','))];
    return { data: (await this.messages.findMessages(userId, ids)).map(toChannelMessage) };
  }

  /**
   * The handles of chats named by JID, for a caller that kept JIDs from before it knew handles (the assistant's
   * pauses): the stored chat's (its number may be known by now), else the JID's own.
   */
  async handles(userId: string, query: ChatHandlesQuery): Promise<ChatHandles> {
    const handles: Record<string, string> = {};
    for (const jid of new Set(query.jids.split(','))) {
      const chat = await this.messages.findChatByJid(userId, jid);
      handles[jid] = handleOf(chat ?? { jid, phone: null, isGroup: jid.endsWith('@g.us') });
    }
    return { handles };
  }

  private async chatOfPhone(userId: string, phone: string) {
    const region = (await this.accounts.find(userId))?.region ?? 'ES';
    const e164 = toE164(phone, region);
    return e164 ? this.messages.findChatByJids(userId, jidCandidates(e164)) : undefined;
  }

  stats(userId: string): Promise<WhatsAppStats> {
    return this.messages.stats(userId);
  }
}
