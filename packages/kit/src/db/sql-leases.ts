import type { LeaseStore } from './lease-loop.js';
import type { Sql } from './sql.js';

/** Where a table keeps its leases: `lease_owner` and `lease_until` columns beside these. */
export interface LeaseColumns {
  /** Schema-qualified: `schema.table`. */
  table: string;
  /** The row's key column, answered as the lease's id. */
  key: string;
  /** The boolean column that says the row wants a holder: a lease on a row that stops wanting one is not renewed. */
  wanted: string;
  /** The columns a claim takes rows in: every replica asks in the same order. */
  order: string[];
}

/** How many rows one claim takes: a replica starting among many unheld rows leaves some for the others' ticks. */
const CLAIM_LIMIT = 100;

/** A name written by code, quoted (`schema.table` → `"schema"."table"`). */
const quote = (name: string): string => `"${name.replace(/"/g, '""').replace(/\./g, '"."')}"`;

/** The lease loop's store on a table's lease columns (PostgreSQL and embedded alike). */
export class SqlLeases implements LeaseStore {
  constructor(
    private readonly sql: Sql,
    private readonly columns: LeaseColumns,
  ) {}

  /**
   * The table's names as fragments. Not `sql(name)`: postgres.js reads an identifier after `update` or `in (`
   * as a row of values.
   */
  private names() {
    const { sql, columns } = this;
    return {
      table: sql.unsafe(quote(columns.table)),
      key: sql.unsafe(quote(columns.key)),
      wanted: sql.unsafe(quote(columns.wanted)),
      order: sql.unsafe(columns.order.map(quote).join(', ')),
    };
  }

  async renew(owner: string, ttlMs: number): Promise<string[]> {
    const { sql } = this;
    const { table, key, wanted } = this.names();
    const rows = await sql<{ id: string }[]>`
      update ${table} set lease_until = now() + ${ttlMs} * interval '1 millisecond'
      where lease_owner = ${owner} and ${wanted}
      returning ${key} as id`;
    return rows.map((r) => r.id);
  }

  async claim(owner: string, ttlMs: number, options: { id?: string; force?: boolean } = {}): Promise<string[]> {
    const { sql } = this;
    const { table, key, wanted, order } = this.names();
    const rows = await sql<{ id: string }[]>`
      update ${table} set lease_owner = ${owner}, lease_until = now() + ${ttlMs} * interval '1 millisecond'
      where ${key} in (
        select ${key} from ${table}
        where ${wanted}
          ${options.id ? sql`and ${key} = ${options.id}` : sql``}
          ${options.force ? sql`` : sql`and (lease_owner is null or lease_owner = ${owner} or lease_until < now())`}
        order by ${order}
        limit ${CLAIM_LIMIT}
        for update skip locked)
      returning ${key} as id`;
    return rows.map((r) => r.id);
  }

  async release(owner: string, id?: string): Promise<void> {
    const { sql } = this;
    const { table, key } = this.names();
    await sql`
      update ${table} set lease_owner = null, lease_until = null
      where lease_owner = ${owner} ${id ? sql`and ${key} = ${id}` : sql``}`;
  }
}
