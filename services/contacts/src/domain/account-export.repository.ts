import type { Sql } from '@asistente/kit';
import type { ContactRow } from './contact.js';

/** A row and where the next page starts after it: its creation time as PostgreSQL writes it (to the microsecond) and its id. */
export type ExportedContact = ContactRow & { at: string };

export interface ExportedTrashed {
  batchId: string;
  id: string;
  deletedAt: Date;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  tags: string[];
}

export interface ExportedView {
  id: string;
  name: string;
  search: string;
  tag: string;
  sort: string;
  direction: string;
  createdAt: Date;
}

/** The user's contacts for "Descargar mis datos", newest first, in keyset pages on (user_id, created_at, id). */
export class AccountExportRepository {
  constructor(private readonly sql: Sql) {}

  async contacts(userId: string, after: string | undefined, limit: number): Promise<ExportedContact[]> {
    const [at, id] = after ? after.split('|') : [];
    return this.sql<ExportedContact[]>`
      select id, user_id, first_name, last_name, email, phone, company, tags, phone_e164, notes, created_at, updated_at,
        created_by, updated_by, created_at::text as at
      from contacts.contacts
      where user_id = ${userId} ${at && id ? this.sql`and (created_at, id) < (${at}::timestamptz, ${id}::uuid)` : this.sql``}
      order by created_at desc, id desc
      limit ${limit}`;
  }

  /** Contacts in the trash (deleted, still restorable): the user's data too. */
  async trash(userId: string, after: string | undefined, limit: number): Promise<ExportedTrashed[]> {
    const [batchId, id] = after ? after.split('|') : [];
    return this.sql<ExportedTrashed[]>`
      select batch_id, id, deleted_at, first_name, last_name, email, phone, company, tags from contacts.trash
      where user_id = ${userId} ${batchId && id ? this.sql`and (batch_id, id) > (${batchId}::uuid, ${id}::uuid)` : this.sql``}
      order by batch_id, id limit ${limit}`;
  }

  async views(userId: string, after: string | undefined, limit: number): Promise<ExportedView[]> {
    return this.sql<ExportedView[]>`
      select id, name, search, tag, sort, direction, created_at from contacts.saved_views
      where user_id = ${userId} ${after ? this.sql`and id > ${after}` : this.sql``}
      order by id limit ${limit}`;
  }
}
