import type { ConversationChannel, EntryAuthor } from '@asistente/contracts';
import type { ServiceCaller } from '@asistente/kit';

/** A message as a channel tells it: who the customer is (`handle`), which way it went, what it said. */
export interface ChannelMessage {
  /** The channel's own id of the message. */
  id: string;
  handle: string;
  /** The customer's name as the channel knows it. */
  name: string | null;
  direction: 'incoming' | 'outgoing';
  /** A person's own conversation, which the assistant may answer (not a group, a broadcast, a newsletter). */
  direct: boolean;
  text: string;
  at: Date;
}

/**
 * What the inbox asks of a channel, in the inbox's words: a text sent to a customer's handle. Only the
 * channel's adapter knows the provider's routes and ids.
 */
export interface Channel {
  readonly name: ConversationChannel;
  /**
   * Sends `text` to `handle` as a member or as the assistant (the channel's own figures count the assistant's);
   * the same `clientId` again answers the message already sent.
   */
  send(caller: ServiceCaller, handle: string, text: string, clientId: string, sender?: 'member' | 'assistant'): Promise<ChannelMessage>;
}

/** A channel whose messages live in its own service: its events name them, and the inbox reads them by id. */
export interface MessageSource {
  /** The messages with these ids (unknown ones left out). */
  messages(caller: ServiceCaller, ids: readonly string[]): Promise<ChannelMessage[]>;
}

/** How a message came to be, as the channel's event tells it, and who wrote it in the inbox's words. */
export interface MessageOrigin {
  author: EntryAuthor;
  /** The member who wrote it, when one did. */
  authorId: string | null;
  /** A real-time message (false for a history sync): only those open, reopen and assign conversations. */
  live: boolean;
  /** A keyword rule answered it already: the assistant leaves it be. */
  autoAnswered?: boolean;
}
