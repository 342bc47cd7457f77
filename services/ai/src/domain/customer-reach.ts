import { ContactMatches, MessageList, type Contact } from '@asistente/contracts';
import type { ServiceCaller, ServiceClient } from '@asistente/kit';
import type { CustomerReach } from './tools/reach.js';

const PHONE_JID = /^\d{6,20}(:\d+)?@s\.whatsapp\.net$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The phone JID of a chat: the jid itself, or for an @lid the chat's JID as the WhatsApp service keeps it
 * (it turns a lid-only chat into its phone JID once WhatsApp tells the number). Read from the chat's own
 * messages, which that service finds by exact jid or lid.
 */
async function phoneJidOf(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, jid: string): Promise<string | undefined> {
  if (PHONE_JID.test(jid)) return jid;
  if (!jid.endsWith('@lid')) return undefined;
  const answer = await services.call('whatsapp', caller, '/whatsapp/messages', MessageList, { query: { jid, limit: 1 } }).catch(() => undefined);
  const chatId = answer?.data[0]?.chatId;
  return chatId !== undefined && PHONE_JID.test(chatId) ? chatId : undefined;
}

/** The contact whose phone is exactly the chat's number (the newest, if the owner entered the person twice). */
async function contactOf(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, phoneJid: string): Promise<Contact | undefined> {
  const answer = await services
    .call('contacts', caller, '/contacts/by-whatsapp', ContactMatches, { query: { jid: phoneJid } })
    .catch(() => undefined);
  return answer?.contacts[0];
}

/**
 * What a customer run may reach, resolved once by the server from the chat: the customer's own contact (exact
 * phone match, never a search), and the mail addresses on it. A sibling that fails leaves the reach empty,
 * which only ever narrows it.
 */
export async function customerReach(services: Pick<ServiceClient, 'call'>, caller: ServiceCaller, jid: string): Promise<CustomerReach> {
  const phoneJid = await phoneJidOf(services, caller, jid);
  const contact = phoneJid ? await contactOf(services, caller, phoneJid) : undefined;
  const email = contact?.email?.trim().toLowerCase();
  // One chat, one key: a device suffix (`:12`) names the same person.
  const chatKey = phoneJid?.replace(/:\d+@/, '@') ?? jid;
  return { kind: 'customer', jid, chatKey, contact, addresses: email && EMAIL.test(email) ? [email] : [] };
}
