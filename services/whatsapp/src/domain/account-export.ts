import { jsonArrayPart, type AccountExportPart } from '@asistente/kit';
import type { AccountExportRepository, ExportedChat, ExportedMessage } from './account-export.repository.js';

/** Messages read per page. */
const PAGE_MESSAGES = 5000;

/** A chat's file name: its WhatsApp id (unique per user) with anything but safe characters replaced. */
export function chatFileName(jid: string): string {
  return `chats/${jid.replace(/[^A-Za-z0-9@.+_-]/g, '_')}.json`;
}

function chatJson(chat: ExportedChat) {
  return { id: chat.jid, name: chat.name, phone: chat.phone, isGroup: chat.isGroup, lastAt: chat.lastAt?.toISOString() ?? null, unread: chat.unread };
}

function messageJson(m: ExportedMessage) {
  return {
    id: m.id,
    type: m.direction,
    from: m.direction === 'outgoing' ? 'me' : m.fromJid,
    to: m.direction === 'outgoing' ? m.toJid : 'me',
    message: m.body,
    media: m.media,
    timestamp: m.sentAt.toISOString(),
    status: m.status,
    origin: m.origin,
    error: m.error,
    // The member who wrote it from the app (their id: it outlives their membership); null for anyone else.
    sentBy: m.sentBy,
  };
}

/**
 * Every chat as one JSON file `{ chat, messages: [...] }`, its messages oldest first. A long chat spans pages:
 * the cursor is `<chat id>` (the chat after it comes next) or `<chat id>|<time>|<seq>` (inside that chat).
 */
function chatsPart(repository: AccountExportRepository): AccountExportPart {
  return {
    async page(userId, cursor) {
      const [chatId, at, seq] = cursor?.split('|') ?? [];
      const inside = at !== undefined && seq !== undefined;
      const chat = inside ? await repository.chat(userId, chatId!) : await repository.nextChat(userId, chatId);
      if (!chat) return { pieces: [], next: null };
      const messages = await repository.messages(userId, chat.id, inside ? { at, seq } : undefined, PAGE_MESSAGES);
      const last = messages.length < PAGE_MESSAGES;
      const head = inside ? (messages.length ? ',\n' : '') : `{"chat": ${JSON.stringify(chatJson(chat))},\n"messages": [\n`;
      const text = head + messages.map((m) => JSON.stringify(messageJson(m))).join(',\n') + (last ? '\n]}\n' : '');
      const end = messages[messages.length - 1];
      return { pieces: [{ path: chatFileName(chat.jid), text }], next: last || !end ? chat.id : `${chat.id}|${end.at}|${end.seq}` };
    },
  };
}

/** WhatsApp's share of "Descargar mis datos": chats with their messages, and the automatic answers (keywords). */
export function whatsappExportParts(repository: AccountExportRepository): AccountExportPart[] {
  return [
    chatsPart(repository),
    jsonArrayPart(
      'respuestas-automaticas.json',
      { rows: (userId, after, limit) => repository.autoReplies(userId, after, limit), key: (row) => row.id },
      (row) => ({ id: row.id, keyword: row.keyword, response: row.response, active: row.active, createdAt: row.createdAt.toISOString() }),
    ),
  ];
}
