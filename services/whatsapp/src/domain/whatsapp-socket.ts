// The one boundary between the service and WhatsApp: everything the rest of the service knows about a
// socket (a port the domain declares). No Baileys type crosses it; the Baileys implementation lives in
// adapters/baileys-connector.ts.

/** Why a socket closed, as the service acts on it. */
export type CloseKind =
  /** The phone unlinked this device (or the session is no longer valid): never reconnect, wipe creds. */
  | 'logged_out'
  /** Another socket took the session over (WhatsApp's 440): reconnecting would fight it. */
  | 'replaced'
  /** WhatsApp asks for a fresh socket right away (515 after pairing). */
  | 'restart'
  /** Network trouble, timeouts, server closes: reconnect with backoff. */
  | 'transient';

export interface MediaInfo {
  kind: 'image' | 'video' | 'document' | 'audio' | 'sticker';
  size: number | null;
  caption: string | null;
}

/** One stored-worthy message, already stripped of reactions, protocol messages and status broadcasts. */
export interface InboundMessage {
  waId: string;
  /** The chat as WhatsApp named it in this message (a phone JID, an @lid or a group JID). */
  chatJid: string;
  /** The other form of a one-to-one chat's JID when WhatsApp gave it (phone beside @lid or the reverse). */
  chatJidAlt: string | null;
  isGroup: boolean;
  fromMe: boolean;
  /** Who wrote it: the participant in a group, the chat otherwise, our own JID when fromMe. */
  senderJid: string;
  pushName: string | null;
  text: string;
  media: MediaInfo | null;
  timestamp: Date;
}

export interface ContactInfo {
  jid: string;
  lid: string | null;
  phoneJid: string | null;
  name: string | null;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface SocketHandlers {
  qr(qr: string): void;
  open(me: { phone: string | null; name: string | null }): void;
  close(kind: CloseKind, reason: string): void;
  /** live: real-time messages after the connection opened; false for history sync and appends. */
  messages(messages: InboundMessage[], live: boolean): void;
  statuses(updates: { waId: string; status: DeliveryStatus }[]): void;
  contacts(contacts: ContactInfo[]): void;
  lidMappings(mappings: { lid: string; pn: string }[]): void;
  /** A message that could not be decrypted (Bad MAC and friends): counted, never a reason to wipe. */
  decryptFailure(): void;
  /** Anything arrived on the socket: the watchdog's sign of life. */
  activity(): void;
}

export interface WhatsAppSocket {
  sendText(jid: string, text: string, waId: string): Promise<void>;
  /** The JID WhatsApp knows for a phone (digits only), or null when the number has no WhatsApp. */
  lookup(phoneDigits: string): Promise<string | null>;
  /** Close the socket and keep the link. */
  end(): void;
  /** Unlink this device from the phone. */
  logout(): Promise<void>;
}

/** Everything a socket needs to persist its own keys: the service's sealed key-per-row store. */
export interface AuthStore {
  get(keys: string[]): Promise<Map<string, string>>;
  set(entries: Map<string, string | null>): Promise<void>;
}

export interface SocketFactory {
  /** A fresh message id in WhatsApp's format, generated before the message is stored. */
  newMessageId(): string;
  connect(store: AuthStore, handlers: SocketHandlers): Promise<WhatsAppSocket>;
}
