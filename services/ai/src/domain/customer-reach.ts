import { type Contact, contactsRoutes, type ConversationChannel, inboxRoutes } from '@asistente/contracts';
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

/** The contact whose phone is exactly the customer's handle (the newest, if the owner entered the person twice). */
async function contactOf(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, handle: string): Promise<Contact | undefined> {
  const answer = await services.call(contactsRoutes.byHandle, caller, { query: { handle } }).catch(() => undefined);
  return answer?.contacts[0];
}

async function conversationOf(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, chat: CustomerChat): Promise<string | null> {
  if (chat.conversationId) return chat.conversationId;
  const found = await services
    .call(inboxRoutes.lookup, caller, { query: { channel: chat.channel, handle: chat.handle } })
    .catch(() => undefined);
  return found?.id ?? null;
}

/**
 * What a customer run may reach, resolved once by the server from the customer's handle: their own contact
 * (an exact match, never a search), the mail addresses on it, and their conversation's thread. Only a number
 * has a contact here: a website visitor's details are what they typed, unproven, so their run reaches their
 * own thread and nothing of the contact the team linked them to. A sibling that
 * fails leaves the reach empty, which only ever narrows it.
 */
export async function customerReach(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, chat: CustomerChat): Promise<CustomerReach> {
  const [contact, conversationId] = await Promise.all([contactOf(services, caller, chat.handle), conversationOf(services, caller, chat)]);
  const email = contact?.email?.trim().toLowerCase();
  return { kind: 'customer', conversationId, chatKey: chatKeyOf(chat.channel, chat.handle), contact, addresses: email && EMAIL.test(email) ? [email] : [] };
}
