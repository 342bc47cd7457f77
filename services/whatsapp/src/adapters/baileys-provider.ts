import { AppError, badRequest, conflict, type ChannelIntake, type IncomingMessage, type Media, type MessagingProvider, type OutgoingMessage, type ProviderStatus, type SentMessage, type Sql } from '@asistente/kit';
import type { AccountRow } from '../domain/accounts.repository.js';
import type { InboundMessage, MediaInfo } from '../domain/whatsapp-socket.js';
import { handleOf as chatHandle } from '../domain/handle.js';
import { NOT_CONNECTED } from '../domain/outbound.service.js';
import { normalizeWhatsAppPhone, phoneOfJid } from '../domain/phone.js';
import type { SessionManager } from '../domain/session-manager.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A JID of a person (phone or @lid) or a group: the chats a handle names. */
const CUSTOMER_JID = /^[\w.:+-]+@(s\.whatsapp\.net|lid|g\.us)$/;
const NO_MEDIA = 'WhatsApp todavía no envía archivos desde aquí: escribe el mensaje como texto';
const SCAN_QR = 'Escanea el código QR con WhatsApp en tu teléfono (Dispositivos vinculados)';
/** The numbers a handle carries are international already: the region is never consulted. */
const ANY_REGION = 'ES';

/** WhatsApp's kinds of media in the port's words (a sticker is an image); the service keeps no MIME type. */
function mediaOf(media: MediaInfo | null): IncomingMessage['media'] {
  if (!media) return null;
  const kind: Media['kind'] = media.kind === 'sticker' ? 'image' : media.kind;
  return { kind, mimeType: 'application/octet-stream', fileName: null, caption: media.caption, size: media.size };
}

function statusOf(account: AccountRow | undefined): ProviderStatus {
  const known = account?.phone ?? account?.name ?? null;
  switch (account?.state) {
    case 'connected':
      return { state: 'connected', account: known, detail: null };
    case 'qr':
      return { state: 'connecting', account: null, detail: SCAN_QR };
    case 'connecting':
      return { state: 'connecting', account: known, detail: account.error };
    case 'error':
    case 'failed':
      return { state: 'failed', account: known, detail: account.error };
    default:
      return { state: 'disconnected', account: known, detail: account?.error ?? null };
  }
}

/**
 * WhatsApp over Baileys as a provider of the messaging port, over the parts the sessions use: the session manager
 * connects (a QR the owner scans), tells the state and disconnects; a send is stored by the outbound service and
 * delivered by the socket's owner, under WhatsApp's own id, which receipts name. The socket's messages are stored
 * by the inbound service as before (the inbox reads them by their events); once stored, the sessions tell this
 * provider, which hands the customers' live messages and the delivery statuses to its intake. No media out:
 * the socket sends text only, so a media send is refused (media that arrives is described, without its bytes).
 */
export class BaileysProvider implements MessagingProvider<void> {
  readonly channel = 'whatsapp';
  readonly name = 'baileys';
  readonly capabilities = { media: false, receipts: true };

  constructor(
    private readonly sql: Sql,
    private readonly sessions: SessionManager,
    private readonly intake: ChannelIntake,
  ) {
    sessions.observe({
      stored: (userId, messages) => this.stored(userId, messages),
      statuses: (userId, updates) => this.intake.receipts(userId, updates.map((u) => ({ id: u.waId, status: u.status }))),
    });
  }

  async status(workspaceId: string): Promise<ProviderStatus> {
    return statusOf(await this.sessions.parts.accounts.find(workspaceId));
  }

  async connect(workspaceId: string): Promise<ProviderStatus> {
    await this.sessions.connect(workspaceId);
    return this.status(workspaceId);
  }

  disconnect(workspaceId: string): Promise<void> {
    return this.sessions.disconnect(workspaceId);
  }

  /**
   * Refused unless the owner keeps the number connected (a socket reconnecting still takes sends: they wait
   * for it, in order); the same client id again is the message already stored.
   */
  async send(workspaceId: string, message: OutgoingMessage): Promise<SentMessage> {
    if (message.content.kind !== 'text') throw badRequest(NO_MEDIA, 'MEDIA_NOT_SUPPORTED');
    if (!UUID.test(message.clientId)) throw badRequest('Identificador de mensaje inválido', 'VALIDATION_ERROR');
    const account = await this.sessions.parts.accounts.find(workspaceId);
    if (!account?.linked || !account.wanted) throw conflict(NOT_CONNECTED, 'WHATSAPP_NOT_CONNECTED');
    const session = this.sessions.local(workspaceId);
    const origin = message.sender === 'assistant' ? 'ai' : 'app';
    const body = { handle: message.handle, type: 'text' as const, text: message.content.text, origin, clientMessageId: message.clientId } as const;
    await this.sessions.parts.outbound.enqueue(workspaceId, body, session ? (digits) => session.lookup(digits) : undefined);
    await this.sessions.deliver(workspaceId);
    const stored = await this.sessions.parts.messages.findByClientId(this.sql, workspaceId, message.clientId);
    if (!stored) throw new AppError(503, 'WHATSAPP_UNAVAILABLE', 'WhatsApp no está disponible en este momento. Inténtalo de nuevo en unos segundos');
    return { id: stored.waId, handle: message.handle, at: stored.sentAt };
  }

  /** A phone number (`+34…`) or a chat's JID; anything else names no customer. */
  handleOf(address: string): string | null {
    const trimmed = address.trim();
    if (CUSTOMER_JID.test(trimmed)) return chatHandle({ jid: trimmed, phone: phoneOfJid(trimmed), isGroup: trimmed.endsWith('@g.us') });
    return /^\+\d{6,20}$/.test(trimmed) ? normalizeWhatsAppPhone(trimmed, ANY_REGION) : null;
  }

  private async stored(workspaceId: string, messages: InboundMessage[]): Promise<void> {
    const fromCustomers = messages.filter((m) => !m.fromMe);
    if (fromCustomers.length === 0) return;
    await this.intake.received(
      workspaceId,
      fromCustomers.map((m) => ({
        id: m.waId,
        // The phone JID beside an @lid, when WhatsApp gave it, names the customer by their number.
        handle: chatHandle({ jid: m.chatJid, phone: phoneOfJid(m.chatJidAlt ?? m.chatJid), isGroup: m.isGroup }),
        name: m.pushName,
        text: m.text,
        media: mediaOf(m.media),
        at: m.timestamp,
      })),
    );
  }
}
