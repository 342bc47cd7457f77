import type { Contact } from '@asistente/contracts';

/** A run that speaks for the owner: their own question, every source as far as their token reaches. */
export interface OwnerReach {
  kind: 'owner';
}

/**
 * A run that carries a customer's message: the tools are bound to this customer, resolved once by the server
 * from the conversation (never from anything the model or the customer wrote).
 */
export interface CustomerReach {
  kind: 'customer';
  /** The customer's conversation in the team inbox, when there is one yet: the thread the chat tool reads. */
  conversationId: string | null;
  /** The chat's key in the assistant's own state (chat-key.ts): its cap, its bookings. */
  chatKey: string;
  /** The customer's own contact record, matched exactly by their handle; undefined when none matches. */
  contact: Contact | undefined;
  /** The customer's own mail addresses, lowercase (their contact's); none known means no mail and no meetings. */
  addresses: string[];
}

export type Reach = OwnerReach | CustomerReach;

export const OWNER_REACH: OwnerReach = { kind: 'owner' };
