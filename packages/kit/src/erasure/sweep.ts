import type { TransactionSql } from '../db/database.js';

/** The one event whose outbox row names an erased user and must still be delivered: the relay drops it once sent. */
export const USER_DELETED = 'user.deleted';

/**
 * Deletes the user's rows from every table of `schemas` that has a `user_id` column, read from the
 * catalogue at the time of the erasure: a table a later migration adds is erased without anyone
 * listing it. A table another one references without `on delete cascade` fails while the referencing
 * rows exist, so each delete runs in a savepoint and the failed ones are tried again after the others,
 * until a pass erases nothing more. The outbox keeps only a pending `user.deleted` (the relay drops it
 * once delivered): every other event of the user, delivered or not, would only have a consumer write
 * data of an erased user again. Rounds repeat until one deletes nothing (a trigger may write a row again,
 * e.g. a count kept per user). Returns the rows deleted.
 */
/** A trigger that writes a row back on every delete would loop forever: the erasure fails (and is retried) instead. */
const MAX_ROUNDS = 5;

export async function sweepUserRows(tx: TransactionSql, schemas: readonly string[], userId: string): Promise<number> {
  // The catalogue itself, not information_schema's views over it: the same answer in a few milliseconds.
  const tables = await tx<{ tableSchema: string; tableName: string }[]>`
    select n.nspname as table_schema, c.relname as table_name
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where a.attname = 'user_id' and not a.attisdropped and a.attnum > 0
      and c.relkind in ('r', 'p') and not c.relispartition and n.nspname = any(${schemas as string[]}::text[])
    order by 1, 2`;
  const names = tables.map((t) => `${t.tableSchema}.${t.tableName}`);
  // Deferred triggers (a count kept at commit) fire now, so a row they write again is seen by the next round.
  await tx`set constraints all immediate`;
  let deleted = 0;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const count = await sweepRound(tx, names, userId);
    deleted += count;
    if (count === 0) return deleted;
  }
  throw new Error(`rows of the user keep coming back in ${schemas.join(', ')} after ${MAX_ROUNDS} rounds`);
}

/** One delete per table; the ones a reference blocks are tried again after the others. */
async function sweepRound(tx: TransactionSql, names: readonly string[], userId: string): Promise<number> {
  let pending = [...names];
  let deleted = 0;
  let lastError: unknown;
  while (pending.length > 0) {
    const failed: string[] = [];
    for (const table of pending) {
      try {
        deleted += await tx.savepoint((sp) => deleteRows(sp, table, userId));
      } catch (error) {
        lastError = error;
        failed.push(table);
      }
    }
    if (failed.length === pending.length) throw lastError;
    pending = failed;
  }
  return deleted;
}

async function deleteRows(tx: TransactionSql, table: string, userId: string): Promise<number> {
  const result = table.endsWith('.outbox')
    ? await tx`delete from ${tx(table)} where user_id = ${userId} and (type <> ${USER_DELETED} or published_at is not null)`
    : await tx`delete from ${tx(table)} where user_id = ${userId}`;
  return result.count;
}
