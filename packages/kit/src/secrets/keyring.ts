// Key ring for secrets at rest: `SECRETS_KEYS=id:base64key,id2:base64key2`, first entry is primary.
// New secrets are sealed with the primary key; every listed key keeps decrypting, which is what lets
// an operator add a key, rotate, and only then drop the old one.

import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const VARIABLE = 'SECRETS_KEYS';
const KEY_BYTES = 32; // AES-256
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_FILE = 'secrets.keys';

/** Bad key configuration; the message names SECRETS_KEYS and the problem, never key material. */
export class SecretsConfigError extends Error {
  constructor(problem: string) {
    super(`${VARIABLE}: ${problem}`);
    this.name = 'SecretsConfigError';
  }
}

/**
 * Keys are reachable only through `key()`: a closure instead of a data field, so logging or
 * JSON-serialising a keyring (or a config object holding one) cannot print key material.
 */
export interface Keyring {
  readonly primaryId: string;
  readonly ids: readonly string[];
  key(id: string): Buffer | undefined;
}

/** The subset of a pino logger this module needs. */
export interface SecretsLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Parses `id:base64key[,id:base64key...]`. `origin` says where the text came from (e.g. a file) so the
 * error points the operator at the right place.
 */
export function parseKeyring(text: string, origin?: string): Keyring {
  const where = origin === undefined ? '' : ` (read from ${origin})`;
  function fail(problem: string): never {
    throw new SecretsConfigError(`${problem}${where}; expected "id:base64key,id2:base64key2"`);
  }

  const trimmed = text.trim();
  if (trimmed === '') fail('is empty');

  const keys = new Map<string, Buffer>();
  trimmed.split(',').forEach((raw, index) => {
    const entry = raw.trim();
    const position = `entry ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon === -1) fail(`${position} has no "id:" prefix`);
    const id = entry.slice(0, colon);
    const encoded = entry.slice(colon + 1).trim();
    if (!KEY_ID.test(id)) fail(`${position} has an invalid key id (use 1-32 of A-Z a-z 0-9 _ -)`);
    if (keys.has(id)) fail(`key id "${id}" appears more than once`);
    const key = Buffer.from(encoded, 'base64');
    // Buffer.from ignores junk characters; only a canonical round trip proves the text was base64.
    if (encoded === '' || key.toString('base64') !== encoded) fail(`key "${id}" is not valid base64`);
    if (key.length !== KEY_BYTES) fail(`key "${id}" decodes to ${key.length} bytes, needs ${KEY_BYTES}`);
    keys.set(id, key);
  });

  const ids = [...keys.keys()];
  const primaryId = ids[0];
  if (primaryId === undefined) fail('has no keys'); // unreachable past the empty check; narrows the type
  return { primaryId, ids, key: (id) => keys.get(id) };
}

/** A fresh key in the format SECRETS_KEYS expects (base64 of 32 random bytes). */
export function generateKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/**
 * Embedded mode without SECRETS_KEYS: keep the key ring in `<dataDir>/secrets.keys`, creating it on
 * first start so `npm start` works with nothing configured. The file sits next to the data it protects,
 * so it only guards against leaks of the database alone (dumps, backups) — hence the 0600 mode.
 */
export async function loadOrCreateEmbeddedKeyring(dataDir: string, log: SecretsLogger): Promise<Keyring> {
  const path = join(dataDir, KEY_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });

  const text = `${dateKeyId(new Date())}:${generateKey()}\n`;
  try {
    // 'wx' fails if the file exists, so an existing key ring is never overwritten.
    await writeFile(path, text, { flag: 'wx', mode: 0o600 });
    log.info({ path }, 'generated a new secrets key ring; back it up, without it stored secrets cannot be read');
    return parseKeyring(text, path);
  } catch (error) {
    if (!isErrorCode(error, 'EEXIST')) throw error;
  }

  await restrictPermissions(path, log);
  return parseKeyring(await readFile(path, 'utf8'), path);
}

function dateKeyId(now: Date): string {
  return `k${now.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

async function restrictPermissions(path: string, log: SecretsLogger): Promise<void> {
  // Windows has no POSIX modes; stat reports made-up bits there.
  if (process.platform === 'win32') return;
  const { mode } = await stat(path);
  if ((mode & 0o077) === 0) return;
  await chmod(path, 0o600);
  log.warn({ path, mode: (mode & 0o777).toString(8) }, 'secrets key file was readable by others; set it to 0600');
}

function isErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
