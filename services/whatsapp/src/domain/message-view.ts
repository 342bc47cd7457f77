import type { ChannelMessage, WhatsAppMessage } from '@asistente/contracts';
import { handleOf } from './handle.js';
import type { MessageInChat, MessageRow } from './messages.repository.js';

export function toMessage(row: MessageRow & { chatJid: string }): WhatsAppMessage {
  return {
    id: row.id,
    chatId: row.chatJid,
    from: row.direction === 'outgoing' ? 'me' : row.fromJid,
    to: row.direction === 'outgoing' ? row.toJid : 'me',
    message: row.body,
    timestamp: row.sentAt.toISOString(),
    type: row.direction,
    status: row.status,
    origin: row.origin,
    media: row.media,
    seq: Number(row.seq),
    ...(row.status === 'failed' ? { error: row.error } : {}),
  };
}

/** The message with its chat named for a caller that knows no JIDs: the chat's handle and its name. */
export function toChannelMessage(row: MessageInChat): ChannelMessage {
  return {
    ...toMessage(row),
    handle: handleOf({ jid: row.chatJid, phone: row.chatPhone, isGroup: row.chatIsGroup }),
    chatName: row.chatName,
  };
}
