// The registry of the database columns that hold sealed secrets. Each service names its own columns (their
// table and column are bound into the AAD of what it seals) and registers them when it boots; the registry is
// a table (`platform.secret_columns`), so `asistente admin rotate-keys`, which boots no service, walks every
// column registered. The kit names none of them.

import type { Sql } from '../db/sql.js';
import type { SecretColumn } from './rotation.js';

export interface RegisteredSecretColumn extends SecretColumn {
  /** Primary key, used for keyset pages and the compare-and-set write. */
  readonly idColumn: string;
  /** The owner's id, which the AAD binds. */
  readonly userIdColumn: string;
}

/**
 * At a service's boot: its sealed columns recorded, or their keys brought up to date. Every replica registers
 * the same rows, so a row that is already right is left unwritten.
 */
export async function registerSecretColumns(sql: Sql, columns: readonly RegisteredSecretColumn[]): Promise<void> {
  if (columns.length === 0) return;
  const rows = columns.map((c) => ({ table_name: c.table, column_name: c.column, id_column: c.idColumn, owner_column: c.userIdColumn }));
  await sql`
    insert into platform.secret_columns ${sql(rows, 'table_name', 'column_name', 'id_column', 'owner_column')}
    on conflict (table_name, column_name) do update set id_column = excluded.id_column, owner_column = excluded.owner_column
    where (secret_columns.id_column, secret_columns.owner_column) is distinct from (excluded.id_column, excluded.owner_column)`;
}

/**
 * Every registered column this database has, by table and column: a column registered by a version that
 * has since dropped it is left out. Runs in a pool or in a transaction (a backup reads it in its snapshot).
 */
export async function registeredSecretColumns(sql: Pick<Sql, 'unsafe'>): Promise<RegisteredSecretColumn[]> {
  const rows = await sql.unsafe<{ table: string; column: string; idColumn: string; userIdColumn: string }[]>(`
    select s.table_name as "table", s.column_name as "column", s.id_column as "idColumn", s.owner_column as "userIdColumn"
      from platform.secret_columns s
     where exists (select 1 from pg_attribute a where a.attrelid = to_regclass(s.table_name) and a.attname = s.column_name and not a.attisdropped)
     order by s.table_name, s.column_name`);
  return rows.map(({ table, column, idColumn, userIdColumn }) => ({ table, column, idColumn, userIdColumn }));
}
