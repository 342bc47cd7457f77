import { ContactMatches } from '@asistente/contracts';
import type { ServiceCaller, ServiceClient } from '@asistente/kit';
import type { CustomerContact, CustomerContacts } from '../domain/customer-contact.js';

/**
 * The customer's contact as the contacts service keeps it, found by the number a person's handle is
 * (`+34611222333`), asked each time a conversation is opened so a contact added later is found. Groups and other
 * handles have none; the contacts service failing leaves the thread without it rather than failing the thread.
 */
export class ContactsDirectory implements CustomerContacts {
  constructor(private readonly services: Pick<ServiceClient, 'call'>) {}

  async ofHandle(caller: ServiceCaller, handle: string): Promise<CustomerContact | null> {
    if (!/^\+\d{6,20}$/.test(handle)) return null;
    const found = await this.services.call('contacts', caller, '/contacts/by-handle', ContactMatches, { query: { handle } }).catch(() => undefined);
    const contact = found?.contacts[0];
    return contact ? { id: contact.id, firstName: contact.firstName, lastName: contact.lastName, email: contact.email ?? null, phone: contact.phone ?? null } : null;
  }
}
