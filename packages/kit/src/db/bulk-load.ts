import { Writable } from 'node:stream';
import { allowLongStatements, type Database, type TransactionSql } from './database.js';

/** A row of text values (null = SQL NULL), in the order of `columns`. */
export type TextRow = (string | null)[];

const BATCH_ROWS = 5000;

/**
 * Loads rows into a table of text columns inside `tx`, as fast as the engine
 * allows: COPY FROM STDIN on a real server; on PGlite, whose socket cannot
 * carry COPY, batched INSERT … SELECT unnest(…). Rows are consumed as they
 * come, so a large source is never held in memory. `table` and `columns`
 * are identifiers from code, never from input.
 */
export async function bulkLoad(
  db: Pick<Database, 'kind'>,
  tx: TransactionSql,
  table: string,
  columns: string[],
  rows: AsyncIterable<TextRow>,
): Promise<number> {
  await allowLongStatements(tx);
  return db.kind === 'postgres' ? copyIn(tx, table, columns, rows) : insertBatches(tx, table, columns, rows);
}

async function copyIn(tx: TransactionSql, table: string, columns: string[], rows: AsyncIterable<TextRow>) {
  const target: Writable = await tx.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`).writable();
  let count = 0;
  let chunk = '';
  for await (const row of rows) {
    chunk += row.map(copyText).join('\t') + '\n';
    count++;
    if (chunk.length >= 64 * 1024) {
      if (!target.write(chunk)) await new Promise((resolve) => target.once('drain', resolve));
      chunk = '';
    }
  }
  await new Promise<void>((resolve, reject) => {
    target.once('error', reject);
    target.end(chunk, () => resolve());
  });
  return count;
}

async function insertBatches(tx: TransactionSql, table: string, columns: string[], rows: AsyncIterable<TextRow>) {
  const statement =
    `insert into ${table} (${columns.join(', ')}) ` +
    `select * from unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')})`;
  let count = 0;
  let batch: TextRow[] = columns.map(() => []);
  const flush = async () => {
    if (batch[0]!.length === 0) return;
    await tx.unsafe(statement, batch as never[]);
    batch = columns.map(() => []);
  };
  for await (const row of rows) {
    row.forEach((value, i) => batch[i]!.push(value));
    count++;
    if (batch[0]!.length >= BATCH_ROWS) await flush();
  }
  await flush();
  return count;
}

/** COPY text format: backslash escapes, \N for NULL. */
function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}
