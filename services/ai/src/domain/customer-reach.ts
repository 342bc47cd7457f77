import { Contact, ContactMatches, InboxConversation, type ConversationChannel } from '@asistente/contracts';
import type { ServiceCaller, ServiceClient } from '@asistente/kit';
import { chatKeyOf } from './chat-key.js';
import type { CustomerReach } from './tools/reach.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A customer as a channel names them: what a run for them starts from. */
export interface CustomerChat {
  channel: ConversationChannel;
  handle: string;
  /** Their conversation in the inbox when the caller knows it; else it is looked up by the handle. */
  conversationId?: string | undefined;
}

const PHONE_HANDLE = /^\+\d{6,20}$/;

/** The contact whose phone is exactly the customer's number (the newest, if the owner entered the person twice). */
async function contactOfNumber(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, handle: string): Promise<Contact | undefined> {
  const answer = await services.call('contacts', caller, '/contacts/by-handle', ContactMatches, { query: { handle } }).catch(() => undefined);
  return answer?.contacts[0];
}

async function conversationOf(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, chat: CustomerChat): Promise<InboxConversation | undefined> {
  return services
    .call('inbox', caller, '/conversations/lookup', InboxConversation, { query: { channel: chat.channel, handle: chat.handle } })
    .catch(() => undefined);
}

/**
 * What a customer run may reach, resolved once by the server from the customer's handle: their own contact
 * (an exact match, never a search: for a number, by the number; for another handle, such as a website
 * visitor's, the contact their conversation is linked to), the mail addresses on it, and their conversation's
 * thread. A sibling that fails leaves the reach empty, which only ever narrows it.
 */
export async function customerReach(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, chat: CustomerChat): Promise<CustomerReach> {
  const number = PHONE_HANDLE.test(chat.handle);
  const [conversation, byNumber] = await Promise.all([
    number && chat.conversationId ? undefined : conversationOf(services, caller, chat),
    number ? contactOfNumber(services, caller, chat.handle) : undefined,
  ]);
  const linked = conversation?.contactId;
  const contact = number ? byNumber : linked ? await services.call('contacts', caller, `/contacts/${linked}`, Contact).catch(() => undefined) : undefined;
  const email = contact?.email?.trim().toLowerCase();
  const conversationId = chat.conversationId ?? conversation?.id ?? null;
  return { kind: 'customer', conversationId, chatKey: chatKeyOf(chat.channel, chat.handle), contact, addresses: email && EMAIL.test(email) ? [email] : [] };
}
