import type { AiSuggestionLine, ConversationChannel } from '@asistente/contracts';
import type { ServiceCaller } from '@asistente/kit';

/** What the assistant reads to draft an answer to a conversation's customer. */
export interface DraftRequest {
  conversationId: string;
  channel: ConversationChannel;
  /** The customer as the channel reaches them: the assistant's tools are bound to this customer alone. */
  handle: string;
  /** Their contact, as the contacts service matches it by the handle now; null when none. */
  contactId: string | null;
  /** The thread's latest messages, oldest first. */
  lines: AiSuggestionLine[];
  /** What the member asked for (a note's text when it named @Asistente). */
  instruction: string | undefined;
}

/**
 * Where the inbox asks for a suggested answer (the ai service, through its adapter). It fails with the house's
 * error in Spanish (no key, the model failing, too slow), never with a bare 500.
 */
export interface ReplyDrafter {
  draft(caller: ServiceCaller, request: DraftRequest): Promise<string>;
}
