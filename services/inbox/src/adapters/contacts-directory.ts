import { Contact, contactsRoutes } from '@asistente/contracts';
import { ServiceCallError, type ServiceCaller, type ServiceClient } from '@asistente/kit';
import type { CustomerContact, CustomerContacts, VisitorDetails } from '../domain/customer-contact.js';

const PHONE_HANDLE = /^\+\d{6,20}$/;

const toCustomer = (contact: Contact): CustomerContact => ({
  id: contact.id,
  firstName: contact.firstName,
  lastName: contact.lastName,
  email: contact.email ?? null,
  phone: contact.phone ?? null,
});

/**
 * The customer's contact as the contacts service keeps it. A number's handle (`+34611222333`) is looked up
 * each time a conversation is opened, so a contact added later is found; another handle (a web visitor) keeps
 * the contact its details linked. The contacts service failing leaves the thread without it rather than failing it.
 */
export class ContactsDirectory implements CustomerContacts {
  constructor(private readonly services: Pick<ServiceClient, 'call'>) {}

  async of(caller: ServiceCaller, customer: { handle: string; contactId: string | null }): Promise<CustomerContact | null> {
    if (PHONE_HANDLE.test(customer.handle)) return (await this.byPhone(caller, customer.handle)) ?? null;
    if (!customer.contactId) return null;
    const contact = await this.services.call(contactsRoutes.get, caller, { params: { id: customer.contactId } }).catch(() => undefined);
    return contact ? toCustomer(contact) : null;
  }

  /**
   * The contact a web visitor's details name: the one with that email (exactly), else that number, else a new
   * one. Undefined when the contacts service cannot tell: the details stay with the visitor meanwhile.
   */
  async linkVisitor(caller: ServiceCaller, visitor: VisitorDetails): Promise<string | undefined> {
    try {
      const email = visitor.email?.toLowerCase();
      if (email) {
        const page = await this.services.call(contactsRoutes.list, caller, { query: { search: email, limit: 20 } });
        const same = page.contacts.find((c) => c.email?.trim().toLowerCase() === email);
        if (same) return same.id;
      }
      if (visitor.phone && PHONE_HANDLE.test(visitor.phone)) {
        const same = await this.byPhone(caller, visitor.phone);
        if (same) return same.id;
      }
      const [firstName = 'Visitante web', ...rest] = (visitor.name ?? '').split(/\s+/).filter(Boolean);
      const created = await this.services.call(contactsRoutes.create, caller, {
        body: { firstName, lastName: rest.join(' '), email: visitor.email, phone: visitor.phone, tags: ['chat web'] },
      });
      return created.id;
    } catch (error) {
      if (error instanceof ServiceCallError) return undefined;
      throw error;
    }
  }

  private async byPhone(caller: ServiceCaller, handle: string): Promise<CustomerContact | undefined> {
    const found = await this.services.call(contactsRoutes.byHandle, caller, { query: { handle } }).catch(() => undefined);
    const contact = found?.contacts[0];
    return contact ? toCustomer(contact) : undefined;
  }
}
