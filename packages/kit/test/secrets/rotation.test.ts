import t from 'tap';
import {
  SecretBox,
  generateKey,
  parseKeyring,
  rotateSecrets,
  verifySecrets,
  type FetchBatch,
  type RotationProgress,
  type SecretColumn,
  type SecretRow,
  type WriteRow,
} from '../../src/secrets/index.js';

const oldKey = `old:${generateKey()}`;
const oldBox = new SecretBox(parseKeyring(oldKey));
const box = new SecretBox(parseKeyring(`new:${generateKey()},${oldKey}`));

const providerKeys: SecretColumn = { table: 'ai.provider_keys', column: 'api_key' };
const mailPasswords: SecretColumn = { table: 'email.accounts', column: 'password' };
const columns = [providerKeys, mailPasswords];

const name = (col: SecretColumn): string => `${col.table}.${col.column}`;

/** An in-memory stand-in for the tables: keyset pages by id, compare-and-set writes. */
class FakeStore {
  readonly tables = new Map<string, Map<string, { userId: string; value: string }>>();
  readonly plaintexts = new Map<string, string>();
  writes = 0;
  /** Simulates the process dying: the write after this many successful ones throws. */
  killAfter = Infinity;
  /** Simulates a fetcher whose SQL already skips rows on the primary key. */
  onlyStale = false;

  add(col: SecretColumn, id: string, userId: string, plaintext: string, sealer: SecretBox): void {
    const table = this.tables.get(name(col)) ?? new Map();
    table.set(id, { userId, value: sealer.seal(plaintext, { userId, ...col }) });
    this.tables.set(name(col), table);
    this.plaintexts.set(`${name(col)}#${id}`, plaintext);
  }

  row(col: SecretColumn, id: string): { userId: string; value: string } {
    const row = this.tables.get(name(col))?.get(id);
    if (row === undefined) throw new Error(`no row ${id}`);
    return row;
  }

  fetchBatch: FetchBatch = async (col, afterId, limit) => {
    const rows: SecretRow[] = [...(this.tables.get(name(col)) ?? new Map()).entries()]
      .map(([id, row]) => ({ id, ...row }))
      .filter((row) => afterId === null || row.id > afterId)
      .filter((row) => !this.onlyStale || box.needsRotation(row.value))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    return rows.slice(0, limit);
  };

  writeRow: WriteRow = async (col, id, oldValue, newValue) => {
    if (this.writes >= this.killAfter) throw new Error('killed');
    const row = this.row(col, id);
    if (row.value !== oldValue) return false;
    row.value = newValue;
    this.writes++;
    return true;
  };
}

const id = (n: number): string => String(n).padStart(4, '0');

// 23 rows per column, every fourth already on the new key, across several users.
function seededStore(): FakeStore {
  const store = new FakeStore();
  for (const col of columns) {
    for (let n = 1; n <= 23; n++) {
      store.add(col, id(n), `user-${n % 3}`, `secreto ${name(col)} ${n} ñ`, n % 4 === 0 ? box : oldBox);
    }
  }
  return store;
}

// Rows not on the primary key or no longer decrypting to what was stored; empty when rotation is done.
function unconverged(store: FakeStore): string[] {
  const bad: string[] = [];
  for (const col of columns) {
    for (const [rowId, row] of store.tables.get(name(col)) ?? []) {
      const where = `${name(col)}#${rowId}`;
      if (box.needsRotation(row.value)) bad.push(`${where} not on primary`);
      if (box.open(row.value, { userId: row.userId, ...col }) !== store.plaintexts.get(where)) bad.push(`${where} changed`);
    }
  }
  return bad;
}

for (const onlyStale of [false, true]) {
  t.test(`killed midway, a rerun converges (fetcher ${onlyStale ? 'skips current rows' : 'returns all rows'})`, async (t) => {
    const store = seededStore();
    store.onlyStale = onlyStale;
    const stale = 2 * (23 - 5); // 5 of 23 per column start on the new key

    store.killAfter = 10;
    await t.rejects(rotateSecrets({ box, columns, fetchBatch: store.fetchBatch, writeRow: store.writeRow, batchSize: 4 }), {
      message: 'killed',
    });
    t.equal(store.writes, 10);
    t.equal(unconverged(store).length, stale - 10, 'the killed run left work behind');

    store.killAfter = Infinity;
    const second = await rotateSecrets({ box, columns, fetchBatch: store.fetchBatch, writeRow: store.writeRow, batchSize: 4 });
    t.equal(second.rotated, stale - 10, 'the rerun does only what was left');
    t.equal(second.failed, 0);
    t.equal(second.conflicts, 0);
    t.equal(second.scanned, second.rotated + second.alreadyCurrent);
    t.equal(second.scanned, onlyStale ? stale - 10 : 46);
    t.same(unconverged(store), []);

    const third = await rotateSecrets({ box, columns, fetchBatch: store.fetchBatch, writeRow: store.writeRow, batchSize: 4 });
    t.same(third, { scanned: onlyStale ? 0 : 46, rotated: 0, alreadyCurrent: onlyStale ? 0 : 46, conflicts: 0, failed: 0 });
  });
}

t.test('dry run counts what would rotate and writes nothing', async (t) => {
  const store = seededStore();
  const before = JSON.stringify([...store.tables.get(name(providerKeys)) ?? []]);
  const counts = await rotateSecrets({
    box,
    columns,
    fetchBatch: store.fetchBatch,
    writeRow: () => Promise.reject(new Error('must not write')),
    dryRun: true,
  });
  t.same(counts, { scanned: 46, rotated: 36, alreadyCurrent: 10, conflicts: 0, failed: 0 });
  t.equal(JSON.stringify([...store.tables.get(name(providerKeys)) ?? []]), before);
});

t.test('a row changed between read and write is not overwritten', async (t) => {
  const store = new FakeStore();
  store.add(providerKeys, id(1), 'u1', 'vieja', oldBox);
  store.add(providerKeys, id(2), 'u1', 'otra', oldBox);
  const fetchBatch: FetchBatch = async (col, afterId, limit) => {
    const rows = await store.fetchBatch(col, afterId, limit);
    // The user saves a new key right after the batch was read.
    store.row(providerKeys, id(1)).value = box.seal('nueva', { userId: 'u1', ...providerKeys });
    return rows;
  };
  const counts = await rotateSecrets({ box, columns: [providerKeys], fetchBatch, writeRow: store.writeRow });
  t.same(counts, { scanned: 2, rotated: 1, alreadyCurrent: 0, conflicts: 1, failed: 0 });
  t.equal(box.open(store.row(providerKeys, id(1)).value, { userId: 'u1', ...providerKeys }), 'nueva');
});

t.test('unreadable rows are counted and reported, the rest still rotate; verify finds them', async (t) => {
  const store = seededStore();
  // Copied to another user's row: the AAD no longer matches.
  store.row(providerKeys, id(3)).value = store.row(providerKeys, id(2)).value;
  store.row(mailPasswords, id(7)).value = 'not an envelope';
  const failures: string[] = [];
  const onFailure = (col: SecretColumn, rowId: string): void => {
    failures.push(`${name(col)}#${rowId}`);
  };

  const counts = await rotateSecrets({ box, columns, fetchBatch: store.fetchBatch, writeRow: store.writeRow, onFailure });
  t.same(counts, { scanned: 46, rotated: 34, alreadyCurrent: 10, conflicts: 0, failed: 2 });
  t.same(failures, ['ai.provider_keys.api_key#0003', 'email.accounts.password#0007']);

  failures.length = 0;
  t.same(await verifySecrets({ box, columns, fetchBatch: store.fetchBatch, onFailure }), { scanned: 46, ok: 44, failed: 2 });
  t.same(failures, ['ai.provider_keys.api_key#0003', 'email.accounts.password#0007']);
});

t.test('verify with a ring that lacks the old key fails every old value', async (t) => {
  const store = seededStore();
  const newOnly = new SecretBox(parseKeyring(`other:${generateKey()}`));
  t.same(await verifySecrets({ box: newOnly, columns, fetchBatch: store.fetchBatch }), { scanned: 46, ok: 0, failed: 46 });
  t.same(await verifySecrets({ box, columns, fetchBatch: store.fetchBatch, batchSize: 23 }), { scanned: 46, ok: 46, failed: 0 });
});

t.test('progress is reported after each batch with running totals', async (t) => {
  const store = seededStore();
  const progress: RotationProgress[] = [];
  await rotateSecrets({
    box,
    columns,
    fetchBatch: store.fetchBatch,
    writeRow: store.writeRow,
    batchSize: 10,
    onProgress: (p) => progress.push(p),
  });
  t.same(
    progress.map((p) => [p.column.table, p.lastId, p.counts.scanned]),
    [
      ['ai.provider_keys', '0010', 10],
      ['ai.provider_keys', '0020', 20],
      ['ai.provider_keys', '0023', 23],
      ['email.accounts', '0010', 33],
      ['email.accounts', '0020', 43],
      ['email.accounts', '0023', 46],
    ],
  );
});

t.test('batchSize must be a positive integer', async (t) => {
  const store = seededStore();
  for (const batchSize of [0, -1, 1.5]) {
    await t.rejects(
      rotateSecrets({ box, columns, fetchBatch: store.fetchBatch, writeRow: store.writeRow, batchSize }),
      RangeError,
    );
  }
});

t.test('a row without a user id is a caller bug and stops the run', async (t) => {
  const store = seededStore();
  const fetchBatch: FetchBatch = async (col, afterId, limit) =>
    (await store.fetchBatch(col, afterId, limit)).map((row) => ({ ...row, userId: '' }));
  await t.rejects(rotateSecrets({ box, columns, fetchBatch, writeRow: store.writeRow }), TypeError);
  await t.rejects(verifySecrets({ box, columns, fetchBatch }), TypeError);
});
