import { randomUUID } from 'node:crypto';
import t from 'tap';
import { SecretBox, generateKey, parseKeyring, registerSecretColumns, type SecretContext } from '@asistente/kit';
import { OPENAI_KEY_COLUMN } from '@asistente/ai';
import { createTestPlatform } from '@asistente/kit/testing';
import { rotateKeys, verifyKeys } from '../src/commands/admin.js';

const oldRing = `old:${generateKey()}`;
const newRing = `new:${generateKey()}`;
const oldBox = new SecretBox(parseKeyring(oldRing));
const rotatingBox = new SecretBox(parseKeyring(`${newRing},${oldRing}`));
const newOnlyBox = new SecretBox(parseKeyring(newRing));

const contextOf = (userId: string): SecretContext => ({ userId, table: OPENAI_KEY_COLUMN.table, column: OPENAI_KEY_COLUMN.column });

// Real Postgres when DATABASE_URL is set, PGlite otherwise: the same SQL the operator's command runs.
const platform = await createTestPlatform(t);
const { sql } = platform.db;

/** Stores `count` OpenAI keys sealed with the old key, as a service running with only that key would have. */
async function seedOldKeys(count: number): Promise<Map<string, string>> {
  const plaintexts = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const userId = randomUUID();
    const key = `sk-test-${randomUUID()}`;
    plaintexts.set(userId, key);
    await sql`
      insert into ai.provider_keys (user_id, provider, api_key_enc, last4)
      values (${userId}, 'openai', ${oldBox.seal(key, contextOf(userId))}, ${key.slice(-4)})`;
  }
  return plaintexts;
}

const stored = () => sql<{ userId: string; apiKeyEnc: string }[]>`select user_id, api_key_enc from ai.provider_keys`;

t.test('rotation killed midway and run again converges on the new key', async (t) => {
  const plaintexts = await seedOldKeys(7);

  let batches = 0;
  const killed = rotateKeys({
    sql,
    box: rotatingBox,
    batchSize: 1,
    dryRun: false,
    onProgress: () => {
      if (++batches === 3) throw new Error('killed');
    },
  });
  await t.rejects(killed, /killed/, 'the first run dies after three rows');
  t.equal((await stored()).filter((r) => r.apiKeyEnc.startsWith('v1:new:')).length, 3, 'three rows already rewritten');

  const dryRun = await rotateKeys({ sql, box: rotatingBox, batchSize: 2, dryRun: true });
  t.match(dryRun, { scanned: 7, rotated: 4, alreadyCurrent: 3, failed: 0 }, 'a dry run counts what is left');
  t.equal((await stored()).filter((r) => r.apiKeyEnc.startsWith('v1:new:')).length, 3, 'and writes nothing');

  const rerun = await rotateKeys({ sql, box: rotatingBox, batchSize: 1, dryRun: false });
  t.match(rerun, { scanned: 7, rotated: 4, alreadyCurrent: 3, conflicts: 0, failed: 0 }, 'the rerun does only the rest');

  for (const row of await stored()) {
    t.equal(newOnlyBox.open(row.apiKeyEnc, contextOf(row.userId)), plaintexts.get(row.userId), 'opens without the old key');
  }
  t.match(await verifyKeys({ sql, box: newOnlyBox, batchSize: 3 }), { scanned: 7, ok: 7, failed: 0 }, 'the old key can go');
  t.match(await rotateKeys({ sql, box: rotatingBox, batchSize: 5, dryRun: false }), { rotated: 0, alreadyCurrent: 7 }, 'a third run has nothing to do');
});

t.test('a value no key opens is counted and reported, and does not stop the others', async (t) => {
  await sql`delete from ai.provider_keys`;
  await seedOldKeys(2);
  const stranger = randomUUID();
  const foreign = new SecretBox(parseKeyring(`old:${generateKey()}`)).seal('sk-ajena-123456789012345', contextOf(stranger));
  await sql`insert into ai.provider_keys (user_id, provider, api_key_enc, last4) values (${stranger}, 'openai', ${foreign}, '2345')`;

  const failures: string[] = [];
  const counts = await rotateKeys({
    sql,
    box: rotatingBox,
    batchSize: 2,
    dryRun: false,
    onFailure: (column, id) => failures.push(`${column.table}.${column.column}#${id}`),
  });
  t.match(counts, { scanned: 3, rotated: 2, failed: 1 });
  t.equal(failures.length, 1);
  t.match(failures[0], /^ai\.provider_keys\.api_key_enc#[0-9a-f-]{36}$/);
});

t.test('a column a service registers is rotated and verified with no change here', async (t) => {
  await sql`delete from ai.provider_keys`;
  await sql`create schema scratch_rotation`;
  t.teardown(async () => {
    await sql`delete from platform.secret_columns where table_name = 'scratch_rotation.notes'`;
    await sql`drop schema scratch_rotation cascade`;
  });
  await sql`create table scratch_rotation.notes (id uuid primary key, owner_id uuid not null, note_enc text)`;
  const notes = { table: 'scratch_rotation.notes', column: 'note_enc', idColumn: 'id', userIdColumn: 'owner_id' };
  await registerSecretColumns(sql, [notes]);
  const owner = randomUUID();
  const context = { userId: owner, table: notes.table, column: notes.column };
  await sql`insert into scratch_rotation.notes (id, owner_id, note_enc) values (${randomUUID()}, ${owner}, ${oldBox.seal('nota privada', context)})`;

  t.match(await rotateKeys({ sql, box: rotatingBox, batchSize: 10, dryRun: false }), { scanned: 1, rotated: 1, failed: 0 });
  const [row] = await sql<{ noteEnc: string }[]>`select note_enc from scratch_rotation.notes`;
  t.equal(newOnlyBox.open(row!.noteEnc, context), 'nota privada');
  t.match(await verifyKeys({ sql, box: newOnlyBox, batchSize: 10 }), { scanned: 1, ok: 1, failed: 0 });
});
