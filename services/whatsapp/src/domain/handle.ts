import type { ChatRow } from './messages.repository.js';
import { jidCandidates, normalizeWhatsAppPhone, phoneOfJid } from './phone.js';

/**
 * A chat's channel-neutral handle: what a service that knows no JIDs (the team inbox) keeps for a chat and
 * hands back to send to it. The WhatsApp service alone maps handles to JIDs:
 * - `+34600111222`: a person's chat whose number is known (E.164, so it matches the contact the user typed);
 * - `group:120363040000000000`: a group, its JID's part before `@g.us`;
 * - `lid:98765432101234`: a person WhatsApp has not told us the number of yet (the JID's part before `@lid`).
 *   Such a chat moves to the `+E164` form once the number is learned; the `lid:` handle keeps reaching it.
 */

/** The libphonenumber region for numbers that carry their `+` and country code: it is never consulted. */
const ANY_REGION = 'ES';

const PHONE = /^\+(\d{6,20})$/;
const GROUP = /^group:([\w.-]+)$/;
const LID = /^lid:([\w.-]+)$/;

/** The handle of a chat (its JID, its known number, whether it is a group). */
export function handleOf(chat: Pick<ChatRow, 'jid' | 'phone' | 'isGroup'>): string {
  const [local = '', server = ''] = chat.jid.split('@');
  if (chat.isGroup) return `group:${local}`;
  const phone = chat.phone ?? phoneOfJid(chat.jid);
  // México's 52 1 … is how WhatsApp spells the number, not E.164: the handle is +52 …, found again by jidCandidates.
  if (phone) return normalizeWhatsAppPhone(phone, ANY_REGION) ?? phone;
  // An @lid, or a kind of chat no handle form names (a bot): its server names the kind, and sending refuses it.
  return `${server}:${local}`;
}

/**
 * The JIDs the chat a handle names may be stored under, the likeliest first (both spellings of a Mexican or
 * Argentinian number, as for a typed one); null for anything that is not a handle.
 */
export function jidsOfHandle(handle: string): string[] | null {
  const trimmed = handle.trim();
  const phone = PHONE.exec(trimmed);
  if (phone) return jidCandidates(`+${phone[1]}`);
  const group = GROUP.exec(trimmed);
  if (group) return [`${group[1]}@g.us`];
  const lid = LID.exec(trimmed);
  return lid ? [`${lid[1]}@lid`] : null;
}
