import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import t from 'tap';
import { createLogger, createPlatform, loadConfig } from '../src/index.js';
import { createTestPlatform, insertAccount } from '../src/testing/index.js';
import { migratedDataDir } from '../src/testing/migrated-data-dir.js';

t.test('a revoked token id is refused, and only that one', async (t) => {
  const platform = await createTestPlatform(t);
  const jti = randomUUID();
  await platform.revocations.revoke(jti, randomUUID(), new Date(Date.now() + 60_000));
  t.equal(await platform.revocations.isRevoked(jti), true);
  t.equal(await platform.revocations.isRevoked(randomUUID()), false);
});

t.test('embedded: revocations survive a restart of the process', async (t) => {
  // Already migrated (the tests' template): the restart is what is tested, not a first start's initdb.
  const dataDir = await migratedDataDir('revocations-');
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({}, { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const log = createLogger('silent', 'test');
  const jti = randomUUID();
  const first = await createPlatform(config, 'test', { log });
  await first.revocations.revoke(jti, randomUUID(), new Date(Date.now() + 60_000));
  await first.close();
  const second = await createPlatform(config, 'test', { log });
  t.teardown(() => second.close());
  t.equal(await second.revocations.isRevoked(jti), true, 'loaded from the database at start');
});

t.test('concurrent checks of one token share a read, but never miss a logout committed before they asked', async (t) => {
  const platform = await createTestPlatform(t);
  // A user row: its trigger writes the user's sessions mark, as auth's registration does.
  const userId = await insertAccount(platform.db.sql);
  const jti = randomUUID();
  const token = { id: userId, workspaceId: userId, jti, issuedAtMs: Date.now() + 1000 };
  t.same(await Promise.all(Array.from({ length: 20 }, () => platform.revocations.isValid(token))), Array(20).fill(true));
  const during = platform.revocations.isValid(token);
  await platform.revocations.revoke(jti, userId, new Date(Date.now() + 60_000));
  t.equal(await platform.revocations.isValid(token), false, 'a check asked after the logout sees it');
  t.type(await during, 'boolean');
});
