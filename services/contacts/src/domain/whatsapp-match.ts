/**
 * The spellings under which a contact's phone may hold the number of a WhatsApp phone JID. WhatsApp keeps
 * México's mobiles as 52 1 … (the numbering plan dropped the 1) and Argentina's as 54 9 …, while the owner may
 * have typed either form: both are candidates, compared exactly, so one customer is found and no other is.
 */
export function whatsAppNumbers(jid: string): { e164: string[]; digits: string[] } {
  const digits = jid.split('@')[0]!.split(':')[0]!;
  const forms = [digits];
  if (digits.startsWith('521') && digits.length === 13) forms.push(`52${digits.slice(3)}`);
  if (digits.startsWith('549')) forms.push(`54${digits.slice(3)}`);
  return { e164: forms.map((form) => `+${form}`), digits: forms };
}
