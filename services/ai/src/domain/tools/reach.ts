import type { Contact } from '@asistente/contracts';

/** A run that speaks for the owner: their own question, every source as far as their token reaches. */
export interface OwnerReach {
  kind: 'owner';
}

/**
 * A run that carries a customer's message: the tools are bound to this customer, resolved once by the server
 * from the chat (never from anything the model or the customer wrote).
 */
export interface CustomerReach {
  kind: 'customer';
  /** The chat the run answers, as the run was given it (a phone JID or an @lid). */
  jid: string;
  /** The chat's phone JID when known (an @lid resolved by the WhatsApp service), else the jid: the chat's one key. */
  chatKey: string;
  /** The customer's own contact record, matched exactly by phone; undefined when none matches. */
  contact: Contact | undefined;
  /** The customer's own mail addresses, lowercase (their contact's); none known means no mail and no meetings. */
  addresses: string[];
}

export type Reach = OwnerReach | CustomerReach;

export const OWNER_REACH: OwnerReach = { kind: 'owner' };
