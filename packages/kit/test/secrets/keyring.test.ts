import t from 'tap';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  SecretsConfigError,
  generateKey,
  loadOrCreateEmbeddedKeyring,
  parseKeyring,
  type SecretsLogger,
} from '../../src/secrets/index.js';

interface LogEntry {
  level: 'info' | 'warn';
  obj: object;
  msg: string;
}

function recordingLogger(): { log: SecretsLogger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return {
    entries,
    log: {
      info: (obj, msg) => entries.push({ level: 'info', obj, msg }),
      warn: (obj, msg) => entries.push({ level: 'warn', obj, msg }),
    },
  };
}

t.test('generateKey gives base64 of 32 random bytes', async (t) => {
  const a = generateKey();
  t.equal(Buffer.from(a, 'base64').length, 32);
  t.not(a, generateKey());
});

t.test('parses a ring; the first key is primary and every key is reachable', async (t) => {
  const k1 = generateKey();
  const k2 = generateKey();
  const ring = parseKeyring(` new:${k1} , old_1:${k2}\n`);
  t.equal(ring.primaryId, 'new');
  t.same(ring.ids, ['new', 'old_1']);
  t.same(ring.key('new'), Buffer.from(k1, 'base64'));
  t.same(ring.key('old_1'), Buffer.from(k2, 'base64'));
  t.equal(ring.key('missing'), undefined);
});

t.test('serialising a ring does not reveal key material', async (t) => {
  const key = generateKey();
  const ring = parseKeyring(`a:${key}`);
  t.notMatch(JSON.stringify({ config: ring }), key);
  t.notMatch(JSON.stringify({ config: ring }), Buffer.from(key, 'base64').toString('hex'));
});

t.test('malformed values throw SecretsConfigError naming SECRETS_KEYS, never the key', async (t) => {
  const good = generateKey();
  const short = Buffer.alloc(16, 7).toString('base64');
  const cases: Array<[string, string, RegExp]> = [
    ['empty', '', /is empty/],
    ['blank', '  \n ', /is empty/],
    ['no id', good, /entry 1 has no "id:" prefix/],
    ['bad id', `bad id:${good}`, /entry 1 has an invalid key id/],
    ['id too long', `${'x'.repeat(33)}:${good}`, /invalid key id/],
    ['empty key', 'a:', /key "a" is not valid base64/],
    ['bad base64', `a:${good.slice(0, -2)}!=`, /key "a" is not valid base64/],
    ['wrong length', `a:${short}`, /key "a" decodes to 16 bytes, needs 32/],
    ['duplicate id', `a:${good},b:${generateKey()},a:${generateKey()}`, /key id "a" appears more than once/],
    ['trailing comma', `a:${good},`, /entry 2 has no "id:" prefix/],
  ];
  for (const [name, text, problem] of cases) {
    const error = t.throws(() => parseKeyring(text), SecretsConfigError, name);
    if (!(error instanceof SecretsConfigError)) continue;
    t.match(error.message, /^SECRETS_KEYS: /, `${name}: names the variable`);
    t.match(error.message, problem, `${name}: says what is wrong`);
    t.notMatch(error.message, good, `${name}: does not print the key`);
    t.notMatch(error.message, short, `${name}: does not print the key`);
  }
});

t.test('embedded: creates secrets.keys with mode 0600 and reuses it', async (t) => {
  const dataDir = join(t.testdir(), 'nested', 'data');
  const { log, entries } = recordingLogger();

  const first = await loadOrCreateEmbeddedKeyring(dataDir, log);
  const path = join(dataDir, 'secrets.keys');
  t.match(first.primaryId, /^k\d{8}$/);
  t.equal(first.ids.length, 1);
  if (process.platform !== 'win32') t.equal((await stat(path)).mode & 0o777, 0o600);

  const text = await readFile(path, 'utf8');
  t.equal(entries.length, 1);
  t.equal(entries[0]?.level, 'info');
  t.same(entries[0]?.obj, { path });
  const keyText = text.trim().split(':')[1] ?? '';
  t.notMatch(JSON.stringify(entries), keyText, 'log does not contain the key');

  const second = await loadOrCreateEmbeddedKeyring(dataDir, log);
  t.equal(second.primaryId, first.primaryId);
  t.same(second.key(second.primaryId), first.key(first.primaryId));
  t.equal(await readFile(path, 'utf8'), text, 'file left untouched');
  t.equal(entries.length, 1, 'nothing logged on reuse');
});

t.test('embedded: an existing file readable by others is fixed to 0600 with a warning', { skip: process.platform === 'win32' }, async (t) => {
  const dataDir = t.testdir();
  const path = join(dataDir, 'secrets.keys');
  const key = generateKey();
  await writeFile(path, `mine:${key}\n`);
  await chmod(path, 0o644);
  const { log, entries } = recordingLogger();

  const ring = await loadOrCreateEmbeddedKeyring(dataDir, log);
  t.equal(ring.primaryId, 'mine');
  t.equal((await stat(path)).mode & 0o777, 0o600);
  t.equal(entries.length, 1);
  t.equal(entries[0]?.level, 'warn');
  t.same(entries[0]?.obj, { path, mode: '644' });
});

t.test('embedded: a malformed file is a config error that says where it was read', async (t) => {
  const dataDir = t.testdir();
  const path = join(dataDir, 'secrets.keys');
  await writeFile(path, 'k1:not-a-key', { mode: 0o600 });
  const error = await loadOrCreateEmbeddedKeyring(dataDir, recordingLogger().log).catch((e: unknown) => e);
  t.type(error, SecretsConfigError);
  t.match(String(error), `SECRETS_KEYS: key "k1" is not valid base64 (read from ${path})`);
});
