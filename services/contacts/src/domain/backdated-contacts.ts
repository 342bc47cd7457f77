import type { Platform } from '@asistente/kit';
import type { ContactFields } from './contact.js';
import { contactCreated, type SnapshotRow } from './contact-events.js';
import { phoneE164 } from './phone.js';

export interface DatedContact extends Omit<ContactFields, 'phoneE164'> {
  createdAt: Date;
}

/**
 * Inserts contacts as if they had been created at `createdAt`, each with its
 * `contacts.contact.created` event dated the same, through the real outbox.
 * Only for seeding demo accounts: the API never lets a client set dates.
 */
export async function insertBackdatedContacts(platform: Platform, userId: string, contacts: DatedContact[]): Promise<number> {
  const outbox = platform.outbox('contacts');
  return platform.db.sql.begin(async (tx) => {
    const rows = await tx<(SnapshotRow & { createdAt: Date })[]>`
      insert into contacts.contacts (user_id, first_name, last_name, email, phone, company, tags, phone_e164, created_at, updated_at)
      select ${userId}, c.first_name, c.last_name, c.email, c.phone, c.company,
        coalesce(string_to_array(nullif(c.tags, ''), '|'), '{}'), c.phone_e164, c.created_at, c.created_at
      from unnest(
        ${contacts.map((c) => c.firstName)}::text[], ${contacts.map((c) => c.lastName)}::text[],
        ${contacts.map((c) => c.email)}::text[], ${contacts.map((c) => c.phone)}::text[],
        ${contacts.map((c) => c.company)}::text[], ${contacts.map((c) => c.tags.join('|'))}::text[],
        ${contacts.map((c) => c.createdAt.toISOString())}::timestamptz[], ${contacts.map((c) => phoneE164(c.phone))}::text[]
      ) as c(first_name, last_name, email, phone, company, tags, created_at, phone_e164)
      on conflict (user_id, lower(email)) where email is not null do nothing
      returning id, first_name, last_name, email, phone, company, tags, created_at`;
    await outbox.append(
      tx,
      rows.map((row) => contactCreated(userId, row, row.createdAt)),
    );
    return rows.length;
  });
}
