import type { ChannelIntake, IncomingMessage, Receipt } from '@asistente/kit';
import type { InboundService } from './inbound.service.js';
import type { MessagesRepository } from './messages.repository.js';
import type { InboundMessage } from './whatsapp-socket.js';

/** A Cloud API customer (`+digits`, from Meta's `wa_id`) in the chat form Baileys gives the same person. */
export const jidOfHandle = (handle: string): string => `${handle.replace(/^\+/, '')}@s.whatsapp.net`;

function toInbound(message: IncomingMessage): InboundMessage {
  const jid = jidOfHandle(message.handle);
  return {
    waId: message.id,
    chatJid: jid,
    chatJidAlt: null,
    isGroup: false,
    fromMe: false,
    senderJid: jid,
    pushName: message.name,
    text: message.text,
    // Kept as the Baileys path keeps media: its kind, size and caption (the bytes stay with WhatsApp).
    media: message.media ? { kind: message.media.kind, size: message.media.size, caption: message.media.caption } : null,
    timestamp: message.at,
  };
}

/**
 * The service's intake for what a provider delivers: a Cloud API message is stored and announced exactly like
 * one from the socket (same rows, same `whatsapp.message.received` event, same keyword answers), and a status
 * moves the stored message like a socket's receipt.
 */
export class ServiceIntake implements ChannelIntake {
  constructor(
    private readonly inbound: InboundService,
    private readonly messages: MessagesRepository,
  ) {}

  async received(workspaceId: string, messages: IncomingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.inbound.store(workspaceId, messages.map(toInbound), true);
  }

  async receipts(workspaceId: string, receipts: Receipt[]): Promise<void> {
    for (const { id, status } of receipts) await this.messages.advanceStatus(workspaceId, id, status);
  }
}
