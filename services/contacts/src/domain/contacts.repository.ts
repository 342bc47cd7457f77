import { CONTACTS_TOTAL_CAP, type ContactSort, type ContactStats } from '@asistente/contracts';
import { withoutStatementTimeout, type Sql, type TransactionSql } from '@asistente/kit';
import type { ContactFields, ContactRow } from './contact.js';
import { SearchTotals } from './search-totals.js';
import { writingMember } from './writing-member.js';

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

const ROW_COLUMNS = 'id, user_id, first_name, last_name, email, phone, company, tags, phone_e164, notes, created_at, updated_at, created_by, updated_by';

type Written = Record<string, string | string[] | null>;

/** The fields given, as columns to write: notes left undefined are not written. */
function written(fields: ContactFields & { userId?: string; createdBy?: string | null; updatedBy: string | null }): Written {
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

/**
 * The part of a long term the trigram index is asked for, when the whole term
 * would make it read posting lists shared by most rows; the whole term is
 * then checked on the few rows found. A term matches within its own part, so
 * nothing is lost. Two cases, where the common part of the text comes first:
 * a word with a number ('Nombre4242', 'contacto4242': the letters are in
 * every row, the number in few), read from its last letter on ('e4242');
 * and a phone's digits, whose first ones (country, '6' of a Spanish mobile)
 * every phone shares, read from their last five.
 */
export function indexedPart(term: string): string | undefined {
  if (/^\d+$/.test(term)) return term.length > 5 ? term.slice(-5) : undefined;
  const numbered = /\p{L}\d{2,}$/u.exec(term) ?? /\p{L}\d{2,}/u.exec(term);
  return numbered && numbered[0].length < term.length ? numbered[0] : undefined;
}

/** Short terms searched as the start of a word: letters and digits only, once folded. */
const WORD_PREFIX = /^[a-z0-9]{1,2}$/;

/** What starts a word in the search column: its start, or a separator found in names, mails and phones. */
const WORD_START = "(^|[ @._+()/,'&-])";

/** Close to contacts.fold (unaccent + lower), to pick the path; the SQL folds the term itself. */
function foldInJs(term: string): string {
  return term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** How a query takes a value: as a parameter, or written into its text (`inline`). */
type Bind = (value: string) => ReturnType<Sql['unsafe']>;

/**
 * A string as an SQL literal: an E'' string whose backslashes and quotes are
 * escaped, so it means the same whatever standard_conforming_strings says.
 * NUL cannot be sent in a query's text (the input guard refuses it anyway).
 */
export function sqlLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('NUL in an SQL literal');
  return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

function safeInteger(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return value;
}

/**
 * Sends a search with its values written in its text, as an unnamed
 * statement: one round trip, planned with its own values. Prepared, the
 * statement would be the same for every term, and after a few runs PostgreSQL
 * may keep one generic plan for all: a walk in list order is right for
 * 'empresa' (every row) and reads a million rows for 'zurbaran' (100), the
 * trigram index the other way round. Unprepared with parameters, postgres.js
 * asks the server their types first: two round trips for every search.
 */
function plannedEachTime<Query extends object>(query: Query): Query {
  // postgres.js reads `options.prepare` per query when it sends it (as sql.unsafe's option does).
  (query as unknown as { options: { prepare?: boolean } }).options.prepare = false;
  return query;
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
  constructor(
    private readonly sql: Sql,
    private readonly totals = new SearchTotals(),
  ) {}

  /** Values as parameters (statements that may be prepared). */
  private readonly param: Bind = (value) => this.sql`${value}`;
  /** Values in the text (searches sent by `plannedEachTime`, which must carry no parameter). */
  private readonly inline: Bind = (value) => this.sql.unsafe(sqlLiteral(value));
  private readonly integer = (value: number) => this.sql.unsafe(String(safeInteger(value)));

  where(userId: string, filter: ListFilter, bind: Bind = this.param) {
    const sql = this.sql;
    const term = filter.search?.trim() ? searchTerm(filter.search.trim()) : undefined;
    return sql`
      user_id = ${bind(userId)}::uuid
      ${term ? sql`and ${this.matches(term, bind)}` : sql``}
      ${filter.tag ? sql`and tags @> array[${bind(filter.tag)}]::text[]` : sql``}`;
  }

  /**
   * The search condition. A term of three characters or more is a substring
   * (the trigram index). A shorter one has no trigram of its own, so a
   * substring would read every row when it is rare: a short term of letters
   * and digits matches the start of a word instead, which the same index
   * finds through the word-start trigrams ('  z', ' zq') that pg_trgm draws
   * from a regex whose separators are listed characters (a negated class or
   * \m would give it none). Anything else keeps the substring, off the index
   * (`search || ''`), on the walk in list order that a common term stops early.
   */
  private matches(term: string, bind: Bind) {
    const sql = this.sql;
    if (term.length >= 3) {
      const part = indexedPart(term);
      if (!part) return sql`search like contacts.fold(${bind(likePattern(term))})`;
      return sql`search like contacts.fold(${bind(likePattern(part))}) and (search || '') like contacts.fold(${bind(likePattern(term))})`;
    }
    if (WORD_PREFIX.test(foldInJs(term))) return sql`search ~ (${bind(WORD_START)} || contacts.fold(${bind(term)}))`;
    return sql`(search || '') like contacts.fold(${bind(likePattern(term))})`;
  }

  /** The WHERE of a bulk action's selection: the user's contacts among the ids, or matching the filter. */
  selection(userId: string, selection: Selection) {
    if (selection.ids) return this.sql`user_id = ${userId} and id = any(${selection.ids}::uuid[])`;
    return this.where(userId, selection.filter ?? {});
  }

  /**
   * One page in the requested order and the total matching. Unfiltered, the
   * total comes from owner_counts in the same query. Filtered, a total counted
   * for the same filter at the user's current contacts version is reused and
   * only the page is read; otherwise the total is counted with the page. Only
   * a filter known to match more than the cap has its page read by walking the
   * order's index, where its rows are dense: under the cap the page is sorted
   * from the matches, gathered first, whatever the planner estimates. When
   * ANALYZE's sample overestimates a rare term, a page planned freely walks
   * the whole index (measured on 100k contacts: 90,000 rows, 38.6 ms against
   * 2.2 ms from its 10 matches).
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
      if (rows.length === 0) return { rows, total: offset === 0 ? 0 : await this.count(userId), totalCapped: false };
      return { rows: rows.map(withoutTotal), total: Number(rows[0]!.total ?? 0), totalCapped: false };
    }
    const key = SearchTotals.key(userId, filter.search?.trim() ? searchTerm(filter.search.trim()) : '', filter.tag);
    const known = this.totals.get(key);
    if (known) {
      const paged = await this.filteredPage(userId, filter, order, limit, offset, known.matched > CONTACTS_TOTAL_CAP);
      if (paged.version === known.version) return capped(paged.rows, known.matched);
    }
    const counted = await this.countedPage(userId, filter, order, limit, offset);
    if (counted.version !== undefined) this.totals.set(key, { version: counted.version, matched: counted.matched });
    return capped(counted.rows, counted.matched);
  }

  /** The filter's rows, its values inline (the searches are planned each time). */
  private matching(userId: string, filter: ListFilter) {
    return this.sql`select ${this.sql.unsafe(ROW_COLUMNS)} from contacts.contacts where ${this.where(userId, filter, this.inline)}`;
  }

  /**
   * A filtered page alone, with the user's contacts version read in the same statement. A dense filter's
   * page walks the order's index; any other is sorted from its matches, gathered first (at most the cap).
   */
  private async filteredPage(userId: string, filter: ListFilter, order: ListOrder, limit: number, offset: number, dense: boolean) {
    const sql = this.sql;
    const matching = this.matching(userId, filter);
    const found = await plannedEachTime(sql<(Partial<ContactRow> & { version: string })[]>`
      ${dense ? sql`` : sql`with matches as materialized (${matching} limit ${this.integer(CONTACTS_TOTAL_CAP + 1)})`}
      select owner.version, page.*
      from (select version from contacts.owner_counts where user_id = ${this.inline(userId)}::uuid) owner
      left join lateral (
        ${dense ? matching : sql`select * from matches`}
        order by ${orderBy(sql, order)}
        limit ${this.integer(limit)} offset ${this.integer(offset)}
      ) page on true`);
    return { version: found[0]?.version, rows: pageRows(found) };
  }

  /**
   * A filtered page and its total, counted up to the cap, in one query: the
   * matches are gathered once up to the cap (the trigram index finds a rare
   * term's few rows; a common term fills the cap from the first rows read),
   * counted and paged from the rows already read (no second visit by id); past
   * the cap the total is "more than", and the page walks the order's index,
   * where a common term's rows are dense.
   */
  private async countedPage(userId: string, filter: ListFilter, order: ListOrder, limit: number, offset: number) {
    const sql = this.sql;
    const found = await plannedEachTime(sql<(Partial<ContactRow> & { matched: string; version: string | null })[]>`
      with matches as materialized (
        ${this.matching(userId, filter)} limit ${this.integer(CONTACTS_TOTAL_CAP + 1)}
      ), counted as (
        select count(*) as matched, (select version from contacts.owner_counts where user_id = ${this.inline(userId)}::uuid) as version from matches
      )
      select counted.matched, counted.version, page.*
      from counted left join lateral (
        (select * from matches
          where counted.matched <= ${this.integer(CONTACTS_TOTAL_CAP)}
          order by ${orderBy(sql, order)}
          limit ${this.integer(limit)} offset ${this.integer(offset)})
        union all
        (select ${sql.unsafe(ROW_COLUMNS)} from contacts.contacts
          where counted.matched > ${this.integer(CONTACTS_TOTAL_CAP)} and ${this.where(userId, filter, this.inline)}
          order by ${orderBy(sql, order)}
          limit ${this.integer(limit)} offset ${this.integer(offset)})
      ) page on true`);
    return { matched: Number(found[0]?.matched ?? 0), version: found[0]?.version ?? undefined, rows: pageRows(found) };
  }

  /** The user's number of contacts, kept by triggers in owner_counts. */
  async count(userId: string): Promise<number> {
    const [row] = await this.sql<{ total: string }[]>`select total from contacts.owner_counts where user_id = ${userId}`;
    return Number(row?.total ?? 0);
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

  /**
   * The contacts whose phone is exactly one of these numbers: by E.164 (its index), or, for a phone stored
   * without a valid E.164, by its digits alone (found through the search column's trigrams, then compared whole).
   */
  async byPhone(userId: string, numbers: { e164: string[]; digits: string[] }, limit: number): Promise<ContactRow[]> {
    const sql = this.sql;
    const byDigits = numbers.digits.map(
      (digits) => sql`(search like ${`%${digits}%`} and regexp_replace(phone, '[^0-9]', '', 'g') = ${digits})`,
    );
    return sql<ContactRow[]>`
      select * from contacts.contacts
      where user_id = ${userId}
        and (phone_e164 = any(${numbers.e164}::text[]) or (phone_e164 is null and phone is not null and (${byDigits.reduce((either, part) => sql`${either} or ${part}`)})))
      order by updated_at desc, id
      limit ${limit}`;
  }

  async insert(tx: TransactionSql, userId: string, fields: ContactFields): Promise<ContactRow> {
    const member = writingMember();
    const values = written({ ...fields, userId, createdBy: member, updatedBy: member });
    const [row] = await tx<ContactRow[]>`
      insert into contacts.contacts ${tx(values)}
      returning *`;
    return row!;
  }

  /** The row as it is now, locked until the transaction ends (what an update is compared with). */
  async lock(tx: TransactionSql, userId: string, id: string): Promise<ContactRow | undefined> {
    const [row] = await tx<ContactRow[]>`select * from contacts.contacts where id = ${id} and user_id = ${userId} for update`;
    return row;
  }

  async update(tx: TransactionSql, userId: string, id: string, fields: ContactFields): Promise<ContactRow | undefined> {
    const [row] = await tx<ContactRow[]>`
      update contacts.contacts set ${tx(written({ ...fields, updatedBy: writingMember() }))}, updated_at = now()
      where id = ${id} and user_id = ${userId}
      returning *`;
    return row;
  }

  /** The row deleted (what its event tells of it), undefined when there was none. */
  async delete(tx: TransactionSql, userId: string, id: string): Promise<ContactRow | undefined> {
    const [row] = await tx<ContactRow[]>`delete from contacts.contacts where id = ${id} and user_id = ${userId} returning *`;
    return row;
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
    // The reader paces the cursor (a slow download): no statement timeout on it.
    return withoutStatementTimeout(this.sql, (sql) => sql<ContactRow[]>`
      select first_name, last_name, email, phone, company, tags
      from contacts.contacts
      where ${this.selection(userId, selection)}
      order by ${orderBy(this.sql, order)}`.cursor(chunk));
  }
}

function withoutTotal({ total: _total, ...row }: ContactRow & { total: string | null }): ContactRow {
  return row;
}

/** The contacts of a page query's rows (a page past the last match is one row of nulls from the left join). */
function pageRows(found: (Partial<ContactRow> & { matched?: string; version?: string | null })[]): ContactRow[] {
  return found.filter((r) => r.id !== null && r.id !== undefined).map(({ matched: _matched, version: _version, ...row }) => row as ContactRow);
}

/** A page with its total: past the cap, the total is the cap and "more than". */
function capped(rows: ContactRow[], matched: number): Page {
  return matched <= CONTACTS_TOTAL_CAP ? { rows, total: matched, totalCapped: false } : { rows, total: CONTACTS_TOTAL_CAP, totalCapped: true };
}
