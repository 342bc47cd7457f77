// Proves the upgrade to workspaces loses nothing: a database built by the earlier migrations, with rows in every
// table (accounts, sessions, personal tokens, sealed secrets, every service's data), upgraded in place; every
// earlier row of every table and every secret is compared, each account owns a workspace of its own id that
// every row under that id belongs to, and its sessions still pass the check.
import { readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import t from 'tap';
import {
  createLogger,
  generateKey,
  MIGRATIONS_DIR,
  migrate,
  parseKeyring,
  Revocations,
  SecretBox,
  startEmbeddedPostgres,
} from '@asistente/kit';
import { OPENAI_KEY_COLUMN } from '@asistente/ai';
import { WEBHOOK_SECRET_COLUMN } from '@asistente/webhooks';
import { createTestDatabase } from '@asistente/kit/testing';
import { seedEveryTable } from './support/seed-every-table.js';

const FIRST_WORKSPACE_MIGRATION = '1732000012000_auth_workspaces';
const earlier = readdirSync(MIGRATIONS_DIR)
  .map((file) => file.replace(/\.sql$/, ''))
  .sort()
  .filter((name) => name < FIRST_WORKSPACE_MIGRATION).length;
const log = createLogger('silent', 'test');
const box = new SecretBox(parseKeyring(`k1:${generateKey()}`));

/** A database of its own: PostgreSQL with DATABASE_URL, else an in-memory PGlite (the embedded topology). */
async function freshDatabase(): Promise<string> {
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase(process.env.DATABASE_URL);
    t.teardown(() => database.drop());
    return database.url!;
  }
  const embedded = await startEmbeddedPostgres('memory://');
  t.teardown(() => embedded.stop());
  return embedded.url;
}

const url = await freshDatabase();
const builtBefore = await migrate(url, log, earlier);
// One connection at a time: PGlite serves a single session (the migration runner's is closed by now).
const connect = () => postgres(url, { max: 1, onnotice: () => {}, transform: postgres.camel });

const accounts = [
  { id: randomUUID(), company: 'Panadería Sol', expected: 'Panadería Sol' },
  { id: randomUUID(), company: null, expected: 'Mi empresa' },
  { id: randomUUID(), company: '   ', expected: 'Mi empresa' },
];
const openAiKey = `sk-${randomUUID()}`;
const webhookSecret = `whsec_${randomUUID()}`;

const seed = connect();
for (const [i, account] of accounts.entries()) {
  await seed`insert into auth.users (id, first_name, last_name, email, password_hash, company)
             values (${account.id}, 'Ana', 'López', ${`ana${i}.${account.id}@ejemplo.es`}, 'scrypt$x', ${account.company})`;
  await seed`insert into contacts.contacts (user_id, first_name, last_name) values (${account.id}, 'Luis', ${`Gómez ${i}`})`;
}
const [owner, second] = accounts;
await seed`insert into platform.personal_tokens (id, user_id, name, scopes, token_hash, prefix)
           values (${randomUUID()}, ${owner!.id}, 'Script', '{contacts:read}', ${randomUUID()}, 'asis_pat_x')`;
await seed`insert into platform.revoked_tokens (jti, user_id, expires_at) values (${randomUUID()}, ${owner!.id}, now() + interval '1 day')`;
await seed`insert into ai.provider_keys (user_id, provider, api_key_enc, last4)
           values (${owner!.id}, 'openai', ${box.seal(openAiKey, { userId: owner!.id, table: OPENAI_KEY_COLUMN.table, column: OPENAI_KEY_COLUMN.column })}, 'abcd')`;
await seed`insert into webhooks.endpoints (id, user_id, url, events, secret_enc)
           values (${randomUUID()}, ${second!.id}, 'https://ejemplo.es/webhook', '{contacts.contact.created}',
                   ${box.seal(webhookSecret, { userId: second!.id, table: WEBHOOK_SECRET_COLUMN.table, column: WEBHOOK_SECRET_COLUMN.column })})`;
await seedEveryTable(seed, accounts[2]!.id, box);

/** Every row of every table of the product's schemas, as JSON, by table. */
async function snapshot(sql: postgres.Sql): Promise<Map<string, Record<string, unknown>[]>> {
  const tables = await sql<{ schema: string; name: string }[]>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema', 'public')
    order by 1, 2`;
  const rows = new Map<string, Record<string, unknown>[]>();
  for (const { schema, name } of tables) {
    const all = await sql.unsafe<Record<string, unknown>[]>(`select * from "${schema}"."${name}"`);
    rows.set(`${schema}.${name}`, all.map((row) => JSON.parse(JSON.stringify(row)) as Record<string, unknown>));
  }
  return rows;
}

const key = (row: Record<string, unknown>, columns: string[]) => JSON.stringify(columns.map((c) => row[c]));
const before = await snapshot(seed);
await seed.end();

const upgrade = await migrate(url, log);
const sql = connect();
t.teardown(() => sql.end());
const after = await snapshot(sql);

t.test('every table of the earlier schema has rows before the upgrade', async (t) => {
  const empty = [...before].filter(([, rows]) => rows.length === 0).map(([table]) => table);
  t.same(empty, [], `none of the ${before.size} is empty (a new table needs its row in support/seed-every-table.ts)`);
});

t.test('every earlier row of every table is still there, column for column', async (t) => {
  t.equal(builtBefore.length, earlier, `the ${earlier} migrations before workspaces built it`);
  t.equal(upgrade[0], FIRST_WORKSPACE_MIGRATION, 'the upgrade applied from the first workspace migration on');
  const lost: string[] = [];
  let compared = 0;
  for (const [table, rows] of before) {
    const now = after.get(table);
    if (!now) {
      lost.push(`${table}: the table is gone`);
      continue;
    }
    const columns = Object.keys(rows[0] ?? {});
    const present = new Set(now.map((row) => key(row, columns)));
    for (const row of rows) {
      compared++;
      if (!present.has(key(row, columns))) lost.push(`${table}: ${key(row, columns)}`);
    }
  }
  t.ok(before.size > 40, `${before.size} tables compared`);
  t.ok(compared >= before.size, `${compared} rows compared`);
  t.same(lost, [], '0 rows lost or changed');
});

t.test('each account owns a workspace with its id, named after its company, and may act in it', async (t) => {
  for (const account of accounts) {
    const [workspace] = await sql<{ name: string }[]>`select name from auth.workspaces where id = ${account.id}`;
    t.equal(workspace?.name, account.expected);
    t.same(await sql`select role from auth.members where workspace_id = ${account.id} and user_id = ${account.id}`, [{ role: 'owner' }]);
    t.same(await sql`select last_workspace_id from auth.users where id = ${account.id}`, [{ lastWorkspaceId: account.id }]);
    const revocations = new Revocations(sql);
    t.ok(await revocations.isValid({ id: account.id, workspaceId: account.id, jti: randomUUID(), issuedAtMs: Date.now() }), 'a session of before passes the token check');
  }
  t.same(await sql`select workspace_id, role from platform.personal_tokens where user_id = ${owner!.id}`, [{ workspaceId: owner!.id, role: 'owner' }], 'the personal token acts in it');
});

t.test('every earlier row under an account\'s id is now under the id of a workspace', async (t) => {
  const workspaces = new Set((await sql<{ id: string }[]>`select id from auth.workspaces`).map((w) => w.id));
  const strays: string[] = [];
  let owned = 0;
  for (const [table, rows] of before) {
    for (const row of rows.filter((r) => 'userId' in r)) {
      owned++;
      if (!workspaces.has(row.userId as string)) strays.push(`${table}: ${String(row.userId)}`);
    }
  }
  t.ok(owned > 60, `${owned} rows under an account's id`);
  t.same(strays, [], 'no row under an id without a workspace');
});

t.test('every sealed secret opens as before, bound to the workspace that has its owner\'s id', async (t) => {
  const [aiKey] = await sql<{ apiKeyEnc: string }[]>`select api_key_enc from ai.provider_keys where user_id = ${owner!.id}`;
  t.equal(box.open(aiKey!.apiKeyEnc, { userId: owner!.id, table: OPENAI_KEY_COLUMN.table, column: OPENAI_KEY_COLUMN.column }), openAiKey);
  const [hook] = await sql<{ secretEnc: string }[]>`select secret_enc from webhooks.endpoints where user_id = ${second!.id}`;
  t.equal(box.open(hook!.secretEnc, { userId: second!.id, table: WEBHOOK_SECRET_COLUMN.table, column: WEBHOOK_SECRET_COLUMN.column }), webhookSecret);
});
