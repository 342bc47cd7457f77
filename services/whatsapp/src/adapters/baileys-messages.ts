// Baileys message shapes → the service's InboundMessage. Pure functions, so the fake-socket tests and the
// real socket go through exactly the same translation.
/* eslint-disable house/lazy-sdk -- this file is loaded only by baileys-connector's first connection, with Baileys itself */
import {
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  jidNormalizedUser,
  normalizeMessageContent,
  proto,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys';
/* eslint-enable house/lazy-sdk */
import type { DeliveryStatus, InboundMessage, MediaInfo } from '../domain/whatsapp-socket.js';

const asNumber = (value: number | { toNumber(): number } | null | undefined): number | null =>
  value === null || value === undefined ? null : typeof value === 'number' ? value : value.toNumber();

export function isUndecryptable(message: WAMessage): boolean {
  return message.messageStubType === proto.WebMessageInfo.StubType.CIPHERTEXT;
}

function mediaOf(content: proto.IMessage): MediaInfo | null {
  const kinds = [
    ['image', content.imageMessage],
    ['video', content.videoMessage],
    ['document', content.documentMessage],
    ['audio', content.audioMessage],
    ['sticker', content.stickerMessage],
  ] as const;
  for (const [kind, media] of kinds) {
    if (!media) continue;
    const caption = 'caption' in media && media.caption ? media.caption : null;
    return { kind, size: asNumber(media.fileLength), caption };
  }
  return null;
}

/**
 * The message as the service stores it, or null for what is not a conversation message: reactions, protocol
 * messages (revokes, edits, history notifications), status broadcasts, newsletters, undecryptable stubs.
 */
export function toInbound(message: WAMessage, ownJid: string | null): InboundMessage | null {
  const key: WAMessageKey = message.key;
  const chatJid = key.remoteJid;
  if (!chatJid || !key.id) return null;
  if (isJidStatusBroadcast(chatJid) || isJidBroadcast(chatJid) || isJidNewsletter(chatJid)) return null;
  if (isUndecryptable(message)) return null;
  const content = normalizeMessageContent(message.message);
  if (!content || content.reactionMessage || content.protocolMessage) return null;
  const media = mediaOf(content);
  // PostgreSQL cannot store NUL; nobody reads it either.
  const text = (content.conversation ?? content.extendedTextMessage?.text ?? media?.caption ?? '').replaceAll('\u0000', '');
  if (!text && !media) return null;
  const isGroup = isJidGroup(chatJid) === true;
  const fromMe = key.fromMe === true;
  const senderJid = fromMe ? (ownJid ?? '') : isGroup ? (key.participantAlt ?? key.participant ?? chatJid) : chatJid;
  const seconds = asNumber(message.messageTimestamp as number | { toNumber(): number } | null | undefined);
  return {
    waId: key.id,
    chatJid: jidNormalizedUser(chatJid),
    chatJidAlt: !isGroup && key.remoteJidAlt ? jidNormalizedUser(key.remoteJidAlt) : null,
    isGroup,
    fromMe,
    senderJid: senderJid ? jidNormalizedUser(senderJid) : '',
    pushName: message.pushName ?? null,
    text,
    media,
    timestamp: seconds === null ? new Date() : new Date(seconds * 1000),
  };
}

/** WhatsApp's acknowledgement levels, in the words the API uses. */
export function deliveryStatus(status: number | null | undefined): DeliveryStatus | null {
  switch (status) {
    case proto.WebMessageInfo.Status.ERROR:
      return 'failed';
    case proto.WebMessageInfo.Status.SERVER_ACK:
      return 'sent';
    case proto.WebMessageInfo.Status.DELIVERY_ACK:
      return 'delivered';
    case proto.WebMessageInfo.Status.READ:
    case proto.WebMessageInfo.Status.PLAYED:
      return 'read';
    default:
      return null;
  }
}
