// The database side of rotation for the registered secret columns: keyset pages and compare-and-set writes.

import type { Sql } from '../db/sql.js';
import type { RegisteredSecretColumn } from './columns.js';
import type { FetchBatch, SecretColumn, SecretRow, WriteRow } from './rotation.js';

export interface SqlSecretStore {
  fetchBatch: FetchBatch;
  writeRow: WriteRow;
}

/**
 * `fetchBatch` and `writeRow` over `columns` with postgres.js. Identifiers come from the registry (what the
 * services registered), never from a request; postgres.js quotes them, splitting `schema.table` at the dot.
 */
export function sqlSecretStore(sql: Sql, columns: readonly RegisteredSecretColumn[]): SqlSecretStore {
  const registered = (col: SecretColumn): RegisteredSecretColumn => {
    const found = columns.find((c) => c.table === col.table && c.column === col.column);
    if (found === undefined) throw new Error(`${col.table}.${col.column} is not a registered secret column`);
    return found;
  };

  return {
    async fetchBatch(col, afterId, limit) {
      const { table, column, idColumn, userIdColumn } = registered(col);
      return sql<SecretRow[]>`
        select ${sql(idColumn)}::text as id, ${sql(userIdColumn)}::text as user_id, ${sql(column)} as value
        from ${sql(table)}
        where ${sql(column)} is not null
          ${afterId === null ? sql`` : sql`and ${sql(idColumn)} > ${afterId}`}
        order by ${sql(idColumn)}
        limit ${limit}`;
    },
    async writeRow(col, id, oldValue, newValue) {
      const { table, column, idColumn } = registered(col);
      const result = await sql`
        update ${sql(table)} set ${sql(column)} = ${newValue}
        where ${sql(idColumn)} = ${id} and ${sql(column)} = ${oldValue}`;
      return result.count === 1;
    },
  };
}
