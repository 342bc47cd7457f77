// Proves every column that holds sealed secrets is registered by the service that owns it when it boots (the kit lists none), and that the migration's record of the earlier ones says the same.
import t from 'tap';
import { registeredSecretColumns } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';

const platform = await createTestPlatform(t);
const { sql } = platform.db;
const named = (columns: { table: string; column: string }[]) => columns.map((c) => `${c.table}.${c.column}`).sort();

t.test('booting every service registers every sealed column, each with its keys', async (t) => {
  const recordedByMigration = await registeredSecretColumns(sql);
  await sql`delete from platform.secret_columns`;
  const gateway = await buildGateway(platform, 'embedded');
  t.teardown(() => gateway.close());
  await gateway.ready();
  const registered = await registeredSecretColumns(sql);
  // A sealed value is stored in a column named `*_enc` (an envelope `v1:<key id>:…`), whichever service owns it.
  const sealed = await sql<{ table: string; column: string }[]>`
    select format('%s.%s', table_schema, table_name) as table, column_name as column
      from information_schema.columns
     where column_name like '%\\_enc' and table_schema not in ('pg_catalog', 'information_schema')`;
  t.ok(sealed.length >= 11, `${sealed.length} sealed columns`);
  t.same(named(registered), named(sealed), 'every sealed column is registered, and nothing else');
  t.same(registered, recordedByMigration, "the migration's record of the earlier columns is what their services register");
});
