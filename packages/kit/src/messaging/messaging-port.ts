// The messaging port: what a provider of a channel (WhatsApp over Baileys, WhatsApp's Cloud API, the
// website's chat, a test's in-memory channel) does, in the inbox's words. No provider type crosses it:
// a customer is a handle, a message is text or a piece of media, a receipt is a status.

/** Where a provider's account stands for a workspace. */
export type ProviderState = 'disconnected' | 'connecting' | 'connected' | 'failed';

export interface ProviderStatus {
  state: ProviderState;
  /** The account as its owner knows it (a phone number, a display name, a widget's name), once connected. */
  account: string | null;
  /** In Spanish: why it is not connected, or what the owner must do next. */
  detail: string | null;
}

export type MediaKind = 'image' | 'document' | 'audio' | 'video';

/** A piece of media as it travels: its bytes with their type, or a provider's own reference to them. */
export interface Media {
  kind: MediaKind;
  mimeType: string;
  /** The bytes when the message carries them (a send); null when only the provider holds them. */
  data: Uint8Array | null;
  fileName: string | null;
  caption: string | null;
  size: number | null;
}

export type OutgoingContent = { kind: 'text'; text: string } | { kind: 'media'; media: Media };

export interface OutgoingMessage {
  /** The customer's handle, as `handleOf` gives it. */
  handle: string;
  content: OutgoingContent;
  /** The sender's own id for the message: the same id again is the same message, sent once. */
  clientId: string;
  /**
   * Who wrote it (a member unless said): a provider paces or counts the assistant's answers apart, and one
   * that records the thread itself (the website's chat) names the author. The acting member is the request's.
   */
  sender?: 'member' | 'assistant';
}

export interface SentMessage {
  /** The provider's id of the message: receipts name it. */
  id: string;
  handle: string;
  at: Date;
}

/** A customer's message as it reaches the service's intake. */
export interface IncomingMessage {
  id: string;
  handle: string;
  /** The customer's name as the provider knows it. */
  name: string | null;
  text: string;
  media: Omit<Media, 'data'> | null;
  at: Date;
}

export type ReceiptStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface Receipt {
  /** A `SentMessage.id`. */
  id: string;
  status: ReceiptStatus;
}

/** The service's own intake: a provider hands it what customers sent and what became of what was sent. */
export interface ChannelIntake {
  received(workspaceId: string, messages: IncomingMessage[]): Promise<void>;
  receipts(workspaceId: string, receipts: Receipt[]): Promise<void>;
}

/** What a provider can do beyond text; the conformance suite holds it to each. */
export interface ProviderCapabilities {
  media: boolean;
  receipts: boolean;
}

/**
 * One provider of one channel. It is built with the service's intake and delivers to it whatever arrives
 * (a socket's messages, a webhook's, a visitor's); the service asks it for the rest.
 */
export interface MessagingProvider<Settings = unknown> {
  /** The channel its conversations belong to (`whatsapp`, `web`…). */
  readonly channel: string;
  /** Its own name within the channel (`baileys`, `cloud`, `widget`…). */
  readonly name: string;
  readonly capabilities: ProviderCapabilities;
  status(workspaceId: string): Promise<ProviderStatus>;
  /** Connects the workspace's account with the settings the owner gave; refuses in Spanish what does not work. */
  connect(workspaceId: string, settings: Settings): Promise<ProviderStatus>;
  disconnect(workspaceId: string): Promise<void>;
  /** Sends to a customer; refused (an AppError in Spanish) when the account is not connected or the content is not allowed. */
  send(workspaceId: string, message: OutgoingMessage): Promise<SentMessage>;
  /** The customer's handle for an address the provider speaks of (a phone number, a visitor id), or null when it names no customer. */
  handleOf(address: string): string | null;
}
