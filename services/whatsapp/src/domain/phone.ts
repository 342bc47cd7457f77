import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** `+34600111222` for a number libphonenumber accepts in the account's region, else null. */
export function toE164(input: string, region: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), region.toUpperCase() as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}

export const phoneJid = (e164: string): string => `${e164.replace(/^\+/, '')}@s.whatsapp.net`;

/** `+<digits>` of a phone JID (`34600111222@s.whatsapp.net`), or null for an @lid, a group or anything else. */
export function phoneOfJid(jid: string): string | null {
  const match = /^(\d{6,20})(?::\d+)?@s\.whatsapp\.net$/.exec(jid);
  return match ? `+${match[1]}` : null;
}

/**
 * The WhatsApp JIDs one E.164 number may live under, the likeliest first. México's mobiles are known to
 * WhatsApp as 52 1 …, Argentina's as 54 9 …, and users type them both ways: both forms are candidates so
 * one customer never becomes two chats.
 */
export function jidCandidates(e164: string): string[] {
  const digits = e164.replace(/^\+/, '');
  if (digits.startsWith('521') && digits.length === 13) return [phoneJid(digits), phoneJid(`52${digits.slice(3)}`)];
  if (digits.startsWith('52') && digits.length === 12) return [phoneJid(`521${digits.slice(2)}`), phoneJid(digits)];
  if (digits.startsWith('549')) return [phoneJid(digits), phoneJid(`54${digits.slice(3)}`)];
  if (digits.startsWith('54')) return [phoneJid(`549${digits.slice(2)}`), phoneJid(digits)];
  return [phoneJid(digits)];
}

export const isPhoneJid = (jid: string): boolean => jid.endsWith('@s.whatsapp.net');
export const isLidJid = (jid: string): boolean => jid.endsWith('@lid');

/**
 * The E.164 of a number as WhatsApp spells it. WhatsApp keeps México's mobiles as 52 1 …, which the numbering
 * plan no longer has: those become +52 … so the contact matches the one the user typed.
 */
export function normalizeWhatsAppPhone(phone: string, region: string): string | null {
  const direct = toE164(phone, region);
  if (direct) return direct;
  const digits = phone.replace(/\D/g, '');
  if (digits.startsWith('521') && digits.length === 13) return toE164(`+52${digits.slice(3)}`, region);
  return null;
}
