// Proves the secret-column registry: a registration is idempotent across replicas and updates a column's keys, and what is read back is only what this database has.
import t from 'tap';
import { createTestPlatform } from '../../src/testing/index.js';
import { registerSecretColumns, registeredSecretColumns } from '../../src/secrets/index.js';

const platform = await createTestPlatform(t);
const { sql } = platform.db;
await sql`create schema scratch_secrets`;
t.teardown(() => sql`drop schema scratch_secrets cascade`);
await sql`create table scratch_secrets.notes (id uuid primary key, owner_id uuid not null, note_enc text)`;
const note = { table: 'scratch_secrets.notes', column: 'note_enc', idColumn: 'id', userIdColumn: 'owner_id' };
const ours = async () => (await registeredSecretColumns(sql)).filter((c) => c.table.startsWith('scratch_secrets.'));

t.test('every replica registers the same column: one row, read back with its keys', async (t) => {
  await Promise.all([registerSecretColumns(sql, [note]), registerSecretColumns(sql, [note]), registerSecretColumns(sql, [])]);
  t.same(await ours(), [note]);
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from platform.secret_columns where table_name = ${note.table}`;
  t.equal(row?.n, 1);
});

t.test("a later version's registration changes the column's keys", async (t) => {
  await sql`alter table scratch_secrets.notes add column note_id uuid`;
  await registerSecretColumns(sql, [{ ...note, idColumn: 'note_id' }]);
  t.same(await ours(), [{ ...note, idColumn: 'note_id' }]);
});

t.test('a registered column this database does not have (dropped, or its table gone) is left out', async (t) => {
  await registerSecretColumns(sql, [
    { ...note, column: 'gone_enc' },
    { table: 'scratch_secrets.nowhere', column: 'x_enc', idColumn: 'id', userIdColumn: 'owner_id' },
  ]);
  t.same(await ours(), [{ ...note, idColumn: 'note_id' }]);
  await sql`delete from platform.secret_columns where table_name like 'scratch_secrets.%'`;
});
