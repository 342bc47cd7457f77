import { CONTACTS_TOTAL_CAP, type ContactSort, type ContactStats } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';
import type { ContactFields, ContactRow } from './contact.js';

export interface ListFilter {
  search?: string | undefined;
  tag?: string | undefined;
}

/** Contacts picked by id, or matching a filter (all of the user's when neither). */
export interface Selection {
  ids?: string[] | undefined;
  filter?: ListFilter | undefined;
}

export interface ListOrder {
  sort: ContactSort;
  order: 'asc' | 'desc';
}

export const DEFAULT_ORDER: ListOrder = { sort: 'createdAt', order: 'desc' };

export interface Page {
  rows: ContactRow[];
  total: number;
  /** More than CONTACTS_TOTAL_CAP match: `total` is the cap, not the exact count. */
  totalCapped: boolean;
}

const ROW_COLUMNS = 'id, user_id, first_name, last_name, email, phone, company, tags, phone_e164, notes, created_at, updated_at';

type Written = Record<string, string | string[] | null>;

/** The fields given, as columns to write: notes left undefined are not written. */
function written(fields: ContactFields & { userId?: string }): Written {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Written;
}

/** `%` and `_` typed by a user are literal characters, not wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A term made only of phone characters with at least three digits is
 * searched by its digits, which the search column also stores bare:
 * '611 22 33 44' finds '+34611223344'.
 */
export function searchTerm(search: string): string {
  if (/^[+\d\s().\-/]+$/.test(search)) {
    const digits = search.replace(/\D/g, '');
    if (digits.length >= 3) return digits;
  }
  return search;
}

/** The ORDER BY of a list order; each has an index to walk, both ways, with the id as tie-breaker. */
function orderBy(sql: Sql, { sort, order }: ListOrder) {
  const dir = order === 'asc' ? sql`asc` : sql`desc`;
  switch (sort) {
    case 'name':
      return sql`lower(first_name) ${dir}, lower(last_name) ${dir}, id ${dir}`;
    case 'company':
      return sql`lower(company) ${dir}, id ${dir}`;
    default:
      return sql`created_at ${dir}, id ${dir}`;
  }
}

export class ContactsRepository {
  constructor(private readonly sql: Sql) {}

  where(userId: string, filter: ListFilter) {
    const sql = this.sql;
    const term = filter.search?.trim() ? searchTerm(filter.search.trim()) : undefined;
    // A term under three characters has no trigram: the trigram index would
    // read all of itself. `search || ''` keeps the planner off it, on the
    // walk in list order, which a short common term stops early.
    const column = term && term.length < 3 ? sql`(search || '')` : sql`search`;
    return sql`
      user_id = ${userId}
      ${term ? sql`and ${column} like contacts.fold(${likePattern(term)})` : sql``}
      ${filter.tag ? sql`and tags @> ${[filter.tag]}::text[]` : sql``}`;
  }

  /** The WHERE of a bulk action's selection: the user's contacts among the ids, or matching the filter. */
  selection(userId: string, selection: Selection) {
    if (selection.ids) return this.sql`user_id = ${userId} and id = any(${selection.ids}::uuid[])`;
    return this.where(userId, selection.filter ?? {});
  }

  /**
   * One page in the requested order and the total matching. Unfiltered, the
   * total comes from owner_counts in the same query. Filtered, the matches
   * are gathered once up to the cap (the trigram index finds a rare term's
   * few rows; a common term fills the cap from the first rows read), counted
   * and paged in the same query; past the cap the total is "more than", and
   * the page walks the order's index, where a common term's rows are dense.
   */
  async page(userId: string, filter: ListFilter, order: ListOrder, limit: number, offset: number): Promise<Page> {
    const sql = this.sql;
    if (!filter.search?.trim() && !filter.tag) {
      const rows = await sql<(ContactRow & { total: string | null })[]>`
        select ${sql.unsafe(ROW_COLUMNS)},
          (select total from contacts.owner_counts where user_id = ${userId}) as total
        from contacts.contacts
        where user_id = ${userId}
        order by ${orderBy(sql, order)}
        limit ${limit} offset ${offset}`;
      // Past the last page no row carries the total.
      if (rows.length === 0) return { rows, total: offset === 0 ? 0 : await this.count(userId, filter), totalCapped: false };
      return { rows: rows.map(withoutTotal), total: Number(rows[0]!.total ?? 0), totalCapped: false };
    }
    const found = await sql<(Partial<ContactRow> & { matched: string })[]>`
      with matches as materialized (
        select id from contacts.contacts where ${this.where(userId, filter)} limit ${CONTACTS_TOTAL_CAP + 1}
      ), counted as (select count(*) as matched from matches)
      select counted.matched, page.*
      from counted left join lateral (
        select ${sql.unsafe(ROW_COLUMNS)} from contacts.contacts
        where id in (select id from matches) and counted.matched <= ${CONTACTS_TOTAL_CAP}
        order by ${orderBy(sql, order)}
        limit ${limit} offset ${offset}
      ) page on true`;
    const matched = Number(found[0]?.matched ?? 0);
    if (matched <= CONTACTS_TOTAL_CAP) {
      const rows = found.filter((r) => r.id !== null && r.id !== undefined).map(withoutMatched);
      return { rows, total: matched, totalCapped: false };
    }
    return { rows: await this.list(userId, filter, order, limit, offset), total: CONTACTS_TOTAL_CAP, totalCapped: true };
  }

  async list(userId: string, filter: ListFilter, order: ListOrder, limit: number, offset: number): Promise<ContactRow[]> {
    return this.sql<ContactRow[]>`
      select ${this.sql.unsafe(ROW_COLUMNS)}
      from contacts.contacts
      where ${this.where(userId, filter)}
      order by ${orderBy(this.sql, order)}
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

  async countOwned(userId: string, ids: string[]): Promise<number> {
    const [row] = await this.sql<{ n: string }[]>`
      select count(*) as n from contacts.contacts where user_id = ${userId} and id = any(${[...new Set(ids)]}::uuid[])`;
    return Number(row?.n ?? 0);
  }

  async find(userId: string, id: string): Promise<ContactRow | undefined> {
    const [row] = await this.sql<ContactRow[]>`select * from contacts.contacts where id = ${id} and user_id = ${userId}`;
    return row;
  }

  async insert(tx: TransactionSql, userId: string, fields: ContactFields): Promise<ContactRow> {
    const values = written({ ...fields, userId });
    const [row] = await tx<ContactRow[]>`
      insert into contacts.contacts ${tx(values)}
      returning *`;
    return row!;
  }

  async update(tx: TransactionSql, userId: string, id: string, fields: ContactFields): Promise<ContactRow | undefined> {
    const [row] = await tx<ContactRow[]>`
      update contacts.contacts set ${tx(written(fields))}, updated_at = now()
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
  cursor(userId: string, selection: Selection, order: ListOrder = DEFAULT_ORDER, chunk = 2000): AsyncIterable<ContactRow[]> {
    return this.sql<ContactRow[]>`
      select first_name, last_name, email, phone, company, tags
      from contacts.contacts
      where ${this.selection(userId, selection)}
      order by ${orderBy(this.sql, order)}`.cursor(chunk);
  }
}

function withoutTotal({ total: _total, ...row }: ContactRow & { total: string | null }): ContactRow {
  return row;
}

function withoutMatched({ matched: _matched, ...row }: Partial<ContactRow> & { matched: string }): ContactRow {
  return row as ContactRow;
}
