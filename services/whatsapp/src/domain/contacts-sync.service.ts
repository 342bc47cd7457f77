import { Contact, contactsRoutes, type SyncContactsResult } from '@asistente/contracts';
import { AppError, ServiceCallError, createEvent, type Outbox, type ServiceClient, type Sql } from '@asistente/kit';
import type { AccountsRepository } from './accounts.repository.js';
import type { MessagesRepository } from './messages.repository.js';
import { normalizeWhatsAppPhone } from './phone.js';

const TAG = 'whatsapp';
const PAGE = 100;

/** First and last name from a WhatsApp display name; contacts requires both. */
function splitName(name: string | null, phone: string): { firstName: string; lastName: string } {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return { firstName: words.slice(0, -1).join(' ').slice(0, 100), lastName: words.at(-1)!.slice(0, 100) };
  if (words.length === 1) return { firstName: words[0]!.slice(0, 100), lastName: 'WhatsApp' };
  return { firstName: phone, lastName: 'WhatsApp' };
}

/**
 * WhatsApp people → the contacts service, through its API (contacts owns contacts; this service never reads
 * its schema). Matched by normalised phone: a new phone is created tagged `whatsapp`, a known one gets the
 * tag if it lacks it; nothing else is touched, so a second sync with nothing new changes nothing.
 */
export class ContactsSyncService {
  constructor(
    private readonly sql: Sql,
    private readonly messages: MessagesRepository,
    private readonly accounts: AccountsRepository,
    private readonly services: ServiceClient,
    private readonly outbox: Outbox,
  ) {}

  async sync(userId: string): Promise<SyncContactsResult> {
    const region = (await this.accounts.find(userId))?.region ?? 'ES';
    const people = await this.messages.syncablePeople(userId);
    try {
      const byPhone = await this.existingByPhone(userId, region);
      let created = 0;
      let updated = 0;
      for (const person of people) {
        const phone = normalizeWhatsAppPhone(person.phone, region);
        if (!phone) continue;
        const existing = byPhone.get(phone);
        if (!existing) {
          const contact = await this.services.call(contactsRoutes.create, userId, {
            body: { ...splitName(person.name, phone), phone, tags: [TAG] },
          });
          byPhone.set(phone, contact);
          created++;
        } else if (!existing.tags.some((t) => t.toLowerCase() === TAG)) {
          const contact = await this.services.call(contactsRoutes.update, userId, { params: { id: existing.id }, 
            body: {
              firstName: existing.firstName,
              lastName: existing.lastName,
              email: existing.email,
              phone: existing.phone,
              company: existing.company,
              tags: [...existing.tags, TAG],
            },
          });
          byPhone.set(phone, contact);
          updated++;
        }
      }
      await this.sql.begin((tx) => this.outbox.append(tx, [createEvent('whatsapp.contacts.synced', userId, { created, updated })]));
      return { created, updated };
    } catch (error) {
      if (error instanceof ServiceCallError) {
        throw new AppError(error.statusCode >= 500 ? 503 : 502, 'CONTACTS_UNAVAILABLE', 'No se pudo hablar con el servicio de contactos. Inténtalo de nuevo.');
      }
      throw error;
    }
  }

  private async existingByPhone(userId: string, region: string): Promise<Map<string, Contact>> {
    const byPhone = new Map<string, Contact>();
    for (let page = 1; ; page++) {
      const list = await this.services.call(contactsRoutes.list, userId, { query: { page, limit: PAGE } });
      for (const contact of list.contacts) {
        const phone = contact.phone ? normalizeWhatsAppPhone(contact.phone, region) : null;
        if (phone && !byPhone.has(phone)) byPhone.set(phone, contact);
      }
      if (page * PAGE >= list.total || list.contacts.length === 0) return byPhone;
    }
  }
}
