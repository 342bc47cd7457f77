/**
 * The spellings under which a contact's phone may hold the number of a channel's handle of a person
 * (`+525512345678`). WhatsApp keeps México's mobiles as 52 1 … (the numbering plan dropped the 1) and Argentina's
 * as 54 9 …, while the owner may have typed either form: both are candidates, compared exactly, so one customer
 * is found and no other is.
 */
export function handleNumbers(handle: string): { e164: string[]; digits: string[] } {
  return numberForms(handle.slice(1));
}

function numberForms(digits: string): { e164: string[]; digits: string[] } {
  const forms = [digits];
  if (digits.startsWith('521') && digits.length === 13) forms.push(`52${digits.slice(3)}`);
  if (digits.startsWith('549')) forms.push(`54${digits.slice(3)}`);
  // A handle is already the dialled form (+52 55…, +54 11…): the owner may have typed WhatsApp's.
  if (digits.startsWith('52') && !digits.startsWith('521') && digits.length === 12) forms.push(`521${digits.slice(2)}`);
  if (digits.startsWith('54') && !digits.startsWith('549')) forms.push(`549${digits.slice(2)}`);
  return { e164: forms.map((form) => `+${form}`), digits: forms };
}
