import type { ContactStats } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';
import type { ContactFields, ContactRow } from './contact.js';

export interface ListFilter {
  search?: string | undefined;
  tag?: string | undefined;
}

const COLUMNS: (keyof ContactFields)[] = ['firstName', 'lastName', 'email', 'phone', 'company', 'tags'];
const INSERT_COLUMNS: (keyof ContactFields | 'userId')[] = [...COLUMNS, 'userId'];

/** `%` and `_` typed by a user are literal characters, not wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class ContactsRepository {
  constructor(private readonly sql: Sql) {}

  private where(userId: string, filter: ListFilter) {
    const sql = this.sql;
    const search = filter.search?.trim();
    return sql`
      user_id = ${userId}
      ${search ? sql`and search like contacts.fold(${likePattern(search)})` : sql``}
      ${filter.tag ? sql`and tags @> ${[filter.tag]}::text[]` : sql``}`;
  }

  /**
   * One page in list order and the total matching. Unfiltered (the list's hot
   * path) both come in one round trip, the total from owner_counts.
   */
  async page(userId: string, filter: ListFilter, limit: number, offset: number): Promise<{ rows: ContactRow[]; total: number }> {
    if (filter.search?.trim() || filter.tag) {
      const [rows, total] = await Promise.all([this.list(userId, filter, limit, offset), this.count(userId, filter)]);
      return { rows, total };
    }
    const rows = await this.sql<(ContactRow & { total: string | null })[]>`
      select id, user_id, first_name, last_name, email, phone, company, tags, created_at, updated_at,
        (select total from contacts.owner_counts where user_id = ${userId}) as total
      from contacts.contacts
      where user_id = ${userId}
      order by created_at desc, id desc
      limit ${limit} offset ${offset}`;
    // Past the last page no row carries the total.
    if (rows.length === 0) return { rows, total: offset === 0 ? 0 : await this.count(userId, filter) };
    return { rows, total: Number(rows[0]!.total ?? 0) };
  }

  async list(userId: string, filter: ListFilter, limit: number, offset: number): Promise<ContactRow[]> {
    return this.sql<ContactRow[]>`
      select id, user_id, first_name, last_name, email, phone, company, tags, created_at, updated_at
      from contacts.contacts
      where ${this.where(userId, filter)}
      order by created_at desc, id desc
      limit ${limit} offset ${offset}`;
  }

  async count(userId: string, filter: ListFilter): Promise<number> {
    if (!filter.search?.trim() && !filter.tag) {
      const [row] = await this.sql<{ total: string }[]>`select total from contacts.owner_counts where user_id = ${userId}`;
      return Number(row?.total ?? 0);
    }
    const [row] = await this.sql<{ count: string }[]>`select count(*) from contacts.contacts where ${this.where(userId, filter)}`;
    return Number(row?.count ?? 0);
  }

  async find(userId: string, id: string): Promise<ContactRow | undefined> {
    const [row] = await this.sql<ContactRow[]>`select * from contacts.contacts where id = ${id} and user_id = ${userId}`;
    return row;
  }

  async insert(tx: TransactionSql, userId: string, fields: ContactFields): Promise<ContactRow> {
    const values: ContactFields & { userId: string } = { ...fields, userId };
    const [row] = await tx<ContactRow[]>`
      insert into contacts.contacts ${tx(values, INSERT_COLUMNS)}
      returning *`;
    return row!;
  }

  async update(tx: TransactionSql, userId: string, id: string, fields: ContactFields): Promise<ContactRow | undefined> {
    const [row] = await tx<ContactRow[]>`
      update contacts.contacts set ${tx(fields, COLUMNS)}, updated_at = now()
      where id = ${id} and user_id = ${userId}
      returning *`;
    return row;
  }

  async delete(tx: TransactionSql, userId: string, id: string): Promise<boolean> {
    const rows = await tx`delete from contacts.contacts where id = ${id} and user_id = ${userId} returning id`;
    return rows.length > 0;
  }

  async stats(userId: string): Promise<ContactStats> {
    const [counts] = await this.sql<{ total: string; withEmail: string }[]>`
      select total, with_email from contacts.owner_counts where user_id = ${userId}`;
    const [distinct] = await this.sql<{ companies: string; tags: string }[]>`
      select
        (select count(distinct contacts.fold(company)) from contacts.contacts
          where user_id = ${userId} and company is not null) as companies,
        (select count(distinct lower(tag)) from contacts.contacts, unnest(tags) as tag
          where user_id = ${userId}) as tags`;
    return {
      total: Number(counts?.total ?? 0),
      withEmail: Number(counts?.withEmail ?? 0),
      companies: Number(distinct?.companies ?? 0),
      tags: Number(distinct?.tags ?? 0),
    };
  }

  async tags(userId: string): Promise<string[]> {
    const rows = await this.sql<{ tag: string }[]>`
      select distinct on (lower(tag)) tag from contacts.contacts, unnest(tags) as tag
      where user_id = ${userId} order by lower(tag), tag`;
    return rows.map((r) => r.tag);
  }

  /** Rows in list order, fetched in chunks so an export never holds the whole table. */
  cursor(userId: string, filter: ListFilter, chunk = 2000): AsyncIterable<ContactRow[]> {
    return this.sql<ContactRow[]>`
      select first_name, last_name, email, phone, company, tags
      from contacts.contacts
      where ${this.where(userId, filter)}
      order by created_at desc, id desc`.cursor(chunk);
  }
}
