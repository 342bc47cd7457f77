import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

/** Numbers typed without a country code are read as Spanish ones. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'ES';

/** The phone in E.164 (`+34611223344`), or null when it is not a valid number: the key one person is matched by. */
export function phoneE164(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const parsed = parsePhoneNumberFromString(phone, DEFAULT_PHONE_COUNTRY);
  return parsed?.isValid() ? parsed.number : null;
}
