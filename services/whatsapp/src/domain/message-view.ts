import type { WhatsAppMessage } from '@asistente/contracts';
import type { MessageRow } from './messages.repository.js';

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
  };
}
