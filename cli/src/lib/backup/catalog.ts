import { registeredSecretColumns, type Sql } from '@asistente/kit';

/** A pool or a transaction: the catalog reads run in either (a backup reads them in its snapshot). */
export type Queryable = Pick<Sql, 'unsafe'>;

/**
 * What belongs to the product in a database: every schema but the system's and `public` (which holds only
 * the migrations' record and the extensions). Read from the catalog rather than listed here, so a service
 * added later is backed up with no change.
 */
const OWN_SCHEMA = `n.nspname not in ('pg_catalog', 'information_schema', 'public') and n.nspname not like 'pg\\_%'`;

export async function serviceSchemas(sql: Queryable): Promise<string[]> {
  const rows = await sql.unsafe<{ name: string }[]>(`select n.nspname as name from pg_namespace n where ${OWN_SCHEMA} order by 1`);
  return rows.map((row) => row.name);
}

/**
 * The tables holding rows, as `schema.name`: plain tables and partitioned parents (reading a parent reads
 * its partitions), never a partition by itself, or its rows would be counted twice.
 */
export async function serviceTables(sql: Queryable): Promise<string[]> {
  const rows = await sql.unsafe<{ name: string }[]>(
    `select format('%s.%s', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and not c.relispartition and ${OWN_SCHEMA}
      order by 1`,
  );
  return rows.map((row) => row.name);
}

/** `schema.name` as a quoted identifier; names only ever come from the catalog or are checked against it. */
export function quoteTable(name: string): string {
  const dot = name.indexOf('.');
  return [name.slice(0, dot), name.slice(dot + 1)].map((part) => `"${part.replaceAll('"', '""')}"`).join('.');
}

/** The migrations applied, in the order they ran (node-pg-migrate's table); none when it does not exist. */
export async function appliedMigrations(sql: Queryable): Promise<string[]> {
  const [table] = await sql.unsafe<{ exists: boolean }[]>(`select to_regclass('public.pgmigrations') is not null as exists`);
  if (!table?.exists) return [];
  return (await sql.unsafe<{ name: string }[]>('select name from public.pgmigrations order by id')).map((row) => row.name);
}

/** Rows per table, for the operator's summary and the tests' comparison. */
export async function countRows(sql: Queryable): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await serviceTables(sql)) {
    const [row] = await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${quoteTable(table)}`);
    counts[table] = row!.n;
  }
  return counts;
}

/** The key ids in the sealed secrets' envelopes (`v1:<keyId>:…`): which key ring entries a restore will need. */
export async function secretKeyIdsInUse(sql: Queryable): Promise<string[]> {
  const ids = new Set<string>();
  for (const { table, column } of await registeredSecretColumns(sql)) {
    const col = `"${column.replaceAll('"', '""')}"`;
    const rows = await sql.unsafe<{ id: string }[]>(`select distinct split_part(${col}, ':', 2) as id from ${quoteTable(table)} where ${col} is not null`);
    for (const { id } of rows) ids.add(id);
  }
  return [...ids].sort();
}
