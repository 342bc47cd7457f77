import type { Contact, ContactBody, ContactList, ContactListQuery, ContactMatches, ContactStats } from '@asistente/contracts';
import { conflict, notFound, type Outbox, type Sql } from '@asistente/kit';
import { contactFields, toContact } from './contact.js';
import { changedFields } from './contact-changes.js';
import { contactCreated, contactDeleted, contactUpdated } from './contact-events.js';
import { DEFAULT_ORDER, type ContactsRepository } from './contacts.repository.js';
import { handleNumbers } from './whatsapp-match.js';

const UNIQUE_VIOLATION = '23505';
const NOT_FOUND = 'Contacto no encontrado';
/** Contacts one phone may name: the same person entered twice, never a list to browse. */
const MAX_PHONE_MATCHES = 5;

function duplicateEmail(error: unknown): never {
  if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
    throw conflict('Ya tienes un contacto con ese correo electrónico', 'CONTACT_EMAIL_TAKEN');
  }
  throw error;
}

export class ContactsService {
  constructor(
    private readonly sql: Sql,
    private readonly contacts: ContactsRepository,
    private readonly outbox: Outbox,
  ) {}

  async list(userId: string, query: ContactListQuery): Promise<ContactList> {
    const filter = { search: query.search, tag: query.tag };
    const order = { sort: query.sort ?? DEFAULT_ORDER.sort, order: query.order ?? (query.sort && query.sort !== 'createdAt' ? 'asc' : 'desc') };
    const { rows, total, totalCapped } = await this.contacts.page(userId, filter, order, query.limit, (query.page - 1) * query.limit);
    return { contacts: rows.map(toContact), total, page: query.page, limit: query.limit, ...(totalCapped ? { totalCapped } : {}) };
  }

  /** The contacts of a WhatsApp phone JID, matched exactly (a handful at most: duplicates of one person). */
  /** The contacts whose phone is a channel's handle of a person (the inbox's conversation with them). */
  async byHandle(userId: string, handle: string): Promise<ContactMatches> {
    const rows = await this.contacts.byPhone(userId, handleNumbers(handle), MAX_PHONE_MATCHES);
    return { contacts: rows.map(toContact) };
  }

  async get(userId: string, id: string): Promise<Contact> {
    const row = await this.contacts.find(userId, id);
    if (!row) throw notFound(NOT_FOUND);
    return toContact(row);
  }

  async create(userId: string, body: ContactBody): Promise<Contact> {
    const fields = contactFields(body);
    const row = await this.sql
      .begin(async (tx) => {
        const created = await this.contacts.insert(tx, userId, fields);
        await this.outbox.append(tx, [contactCreated(userId, created)]);
        return created;
      })
      .catch(duplicateEmail);
    return toContact(row);
  }

  async update(userId: string, id: string, body: ContactBody): Promise<Contact> {
    const fields = contactFields(body);
    const row = await this.sql
      .begin(async (tx) => {
        const before = await this.contacts.lock(tx, userId, id);
        if (!before) return undefined;
        const updated = await this.contacts.update(tx, userId, id, fields);
        if (updated) await this.outbox.append(tx, [contactUpdated(userId, updated, changedFields(before, updated))]);
        return updated;
      })
      .catch(duplicateEmail);
    if (!row) throw notFound(NOT_FOUND);
    return toContact(row);
  }

  async delete(userId: string, id: string): Promise<void> {
    const deleted = await this.sql.begin(async (tx) => {
      const gone = await this.contacts.delete(tx, userId, id);
      if (gone) await this.outbox.append(tx, [contactDeleted(userId, gone)]);
      return gone !== undefined;
    });
    if (!deleted) throw notFound(NOT_FOUND);
  }

  stats(userId: string): Promise<ContactStats> {
    return this.contacts.stats(userId);
  }

  tags(userId: string): Promise<string[]> {
    return this.contacts.tags(userId);
  }
}
