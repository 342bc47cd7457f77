import type { Sql } from '@asistente/kit';
import type { ContactRow } from './contact.js';

/** A row and where the next page starts after it: its creation time as PostgreSQL writes it (to the microsecond) and its id. */
export type ExportedContact = ContactRow & { at: string };

/** The user's contacts for "Descargar mis datos", newest first, in keyset pages on (user_id, created_at, id). */
export class AccountExportRepository {
  constructor(private readonly sql: Sql) {}

  async contacts(userId: string, after: string | undefined, limit: number): Promise<ExportedContact[]> {
    const [at, id] = after ? after.split('|') : [];
    return this.sql<ExportedContact[]>`
      select id, user_id, first_name, last_name, email, phone, company, tags, phone_e164, notes, created_at, updated_at,
        created_at::text as at
      from contacts.contacts
      where user_id = ${userId} ${at && id ? this.sql`and (created_at, id) < (${at}::timestamptz, ${id}::uuid)` : this.sql``}
      order by created_at desc, id desc
      limit ${limit}`;
  }
}
