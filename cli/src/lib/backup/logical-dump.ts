import type { Sql, TransactionSql } from '@asistente/kit';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type ArchiveWriter, type Sequence } from './archive.js';
import { appliedMigrations, quoteTable, secretKeyIdsInUse, serviceSchemas, serviceTables } from './catalog.js';

export interface DumpSummary {
  tables: Record<string, number>;
  rows: number;
  migrations: number;
  secretKeyIds: string[];
}

const CURSOR_ROWS = 1000;

/**
 * Every row of every service table, read in ONE repeatable-read, read-only transaction: the archive is the
 * database as of a single instant, whatever the server writes meanwhile. (On the embedded database, one
 * session for everyone, the server's own queries wait behind this transaction until it commits.)
 */
export async function dumpDatabase(sql: Sql, writer: ArchiveWriter, source: 'pglite' | 'postgres'): Promise<DumpSummary> {
  return (await sql.begin('isolation level repeatable read read only', async (tx) => {
    const migrations = await appliedMigrations(tx);
    const tables = await serviceTables(tx);
    const secretKeyIds = await secretKeyIdsInUse(tx);
    await writer.line({
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: new Date().toISOString(),
      source,
      migrations,
      schemas: await serviceSchemas(tx),
      secretKeyIds,
    });
    const counts: Record<string, number> = {};
    let total = 0;
    for (const table of tables) {
      await writer.line(['table', table]);
      let rows = 0;
      const cursor = tx.unsafe<{ row: string }[]>(`select to_jsonb(t)::text as row from ${quoteTable(table)} t`).cursor(CURSOR_ROWS);
      for await (const batch of cursor) {
        for (const { row } of batch) await writer.write(row);
        rows += batch.length;
      }
      await writer.line(['rows', rows]);
      counts[table] = rows;
      total += rows;
    }
    await writer.line(['sequences', await sequences(tx)]);
    await writer.line(['end', { tables: tables.length, rows: total }]);
    return { tables: counts, rows: total, migrations: migrations.length, secretKeyIds };
  })) as DumpSummary;
}

/** Every sequence that has handed out a value, as setval() takes it back. */
async function sequences(tx: TransactionSql): Promise<Sequence[]> {
  const schemas = await serviceSchemas(tx);
  return tx<Sequence[]>`
    select format('%I.%I', schemaname, sequencename) as name, last_value::text as value
      from pg_sequences where schemaname = any(${schemas}) and last_value is not null order by 1`;
}
