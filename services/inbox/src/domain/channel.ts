import type { EntryAuthor } from '@asistente/contracts';
import type { ChannelIntake, MessagingProvider, ServiceCaller, ServiceClient, Sql } from '@asistente/kit';

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
  /** The name its conversations carry (`whatsapp`, `web`…): the key it is registered under in `channels.ts`. */
  readonly name: string;
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

/** The inbox's intake as a channel that keeps its thread in the inbox records its own sends (the Intake). */
export interface ThreadRecorder {
  record(workspaceId: string, channel: string, message: ChannelMessage, origin: MessageOrigin): Promise<{ entry: { channelMessageId: string | null; at: Date } }>;
}

/** What the inbox gives each channel it registers (`channels.ts`), whichever way the channel reaches its customers. */
export interface ChannelParts {
  sql: Sql;
  services: ServiceClient;
  /** This channel's intake: a provider in the inbox's process hands it what its customers write. */
  intake: ChannelIntake;
  /** The inbox's record of every thread: a channel whose thread lives in the inbox (the website's chat) writes its sends there. */
  threads: ThreadRecorder;
  publicUrl: string;
}

/** One line of the registry: how the inbox builds a channel, as the inbox's own `Channel` or as a port's provider. */
export type ChannelRegistration = (parts: ChannelParts) => Channel | MessagingProvider;
