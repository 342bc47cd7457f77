import { contactsRoutes, EMAIL_CONTACT_VARIABLES, type PersonalTokenScope, scopesCover } from '@asistente/contracts';
import type { Logger, ServiceClient } from '@asistente/kit';

/** A contact as the contacts service answers it: what the variables are filled from. */
export interface ContactLike {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  company: string | null;
}

/** `{palabra}`: letters (accents too), digits and `_`. CSS or JSON braces hold spaces or colons and never match. */
const VARIABLE = /\{([\p{L}\p{N}_]+)\}/gu;

/** The values a contact gives the variables, blanks left out (a blank company fills nothing). */
export function contactValues(contact: ContactLike): Record<string, string> {
  const all: Record<(typeof EMAIL_CONTACT_VARIABLES)[number], string> = {
    nombre_cliente: `${contact.firstName} ${contact.lastName}`.trim(),
    nombre: contact.firstName.trim(),
    apellido: contact.lastName.trim(),
    empresa: contact.company?.trim() ?? '',
    correo: contact.email?.trim() ?? '',
    telefono: contact.phone?.trim() ?? '',
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== ''));
}

export interface Resolved {
  text: string;
  /** The variables left as written, in the order they first appear (`{producto}`). */
  unresolved: string[];
}

/** Every variable with a value replaced; the others stay as written and are named. */
export function resolveVariables(text: string, values: Record<string, string>): Resolved {
  const unresolved = new Set<string>();
  const resolved = text.replace(VARIABLE, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) unresolved.add(whole);
    return value ?? whole;
  });
  return { text: resolved, unresolved: [...unresolved] };
}

export function hasVariables(text: string): boolean {
  return new RegExp(VARIABLE.source, 'u').test(text);
}

/**
 * The contact with an address, asked of the contacts service on the owner's behalf, as it is now. Contacts
 * unreachable reads as no contact: the mail's variables then stay unresolved and the owner is asked.
 */
export class RecipientContacts {
  constructor(
    private readonly services: ServiceClient,
    private readonly log: Logger,
  ) {}

  /**
   * `scopes`: the caller's, when a personal token asks. One that may not read contacts gets no contact, so
   * the variables stay as written and a mail tool never hands out a contact's name, company or phone.
   */
  async byEmail(userId: string, email: string, scopes?: readonly PersonalTokenScope[]): Promise<ContactLike | undefined> {
    if (!scopesCover(scopes, 'contacts:read')) return undefined;
    try {
      const page = await this.services.call(contactsRoutes.list, userId, {
        query: { search: email, limit: 10 },
      });
      return page.contacts.find((c) => c.email?.toLowerCase() === email.toLowerCase());
    } catch (error) {
      this.log.warn({ err: error }, 'contacts unreachable: variables not filled');
      return undefined;
    }
  }
}
