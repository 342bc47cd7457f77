// AES-256-GCM envelopes for third-party secrets stored in the database:
//   v1:<keyId>:<iv b64url>:<ciphertext b64url>:<tag b64url>
// The key id travels with the value so old keys keep decrypting after a new primary is added.

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Keyring } from './keyring.js';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12; // the GCM nonce size that needs no extra hashing; random per seal
const TAG_BYTES = 16; // full-length tag: a short tag would make forgeries cheaper
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Where a secret lives. It is bound into the AAD, so a value copied to another row or column fails. */
export interface SecretContext {
  userId: string;
  table: string;
  column: string;
}

/**
 * Any failure to open an envelope. One generic message on purpose: saying whether the key, the format
 * or the tag was wrong would help someone probing stored values, and callers cannot act on it anyway.
 */
export class SecretDecryptError extends Error {
  constructor() {
    super('secret could not be decrypted');
    this.name = 'SecretDecryptError';
  }
}

interface Envelope {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

export class SecretBox {
  readonly #keyring: Keyring;
  readonly #primaryKey: Buffer;

  constructor(keyring: Keyring) {
    const primaryKey = keyring.key(keyring.primaryId);
    if (primaryKey === undefined) throw new Error('keyring has no key for its primary id');
    this.#keyring = keyring;
    this.#primaryKey = primaryKey;
  }

  get primaryKeyId(): string {
    return this.#keyring.primaryId;
  }

  seal(plaintext: string, ctx: SecretContext): string {
    const keyId = this.#keyring.primaryId;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#primaryKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(ctx));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, ciphertext, cipher.getAuthTag()].map((b) => b.toString('base64url'));
    return [VERSION, keyId, ...parts].join(':');
  }

  open(envelope: string, ctx: SecretContext): string {
    const { keyId, iv, ciphertext, tag } = parse(envelope);
    const key = this.#keyring.key(keyId);
    if (key === undefined) throw new SecretDecryptError();
    // authTagLength pins the tag size, otherwise Node would accept a truncated tag.
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(ctx));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptError();
    }
  }

  /** True when the value was sealed with a key other than the primary; a malformed value throws SecretDecryptError. */
  needsRotation(envelope: string): boolean {
    return parse(envelope).keyId !== this.#keyring.primaryId;
  }

  /** Re-encrypts under the primary key, whichever listed key sealed it. */
  reseal(envelope: string, ctx: SecretContext): string {
    return this.seal(this.open(envelope, ctx), ctx);
  }
}

// JSON of an array instead of joining with a separator: a separator inside a user id could make two
// different contexts produce the same bytes.
function aad({ userId, table, column }: SecretContext): Buffer {
  if (userId === '' || table === '' || column === '') {
    throw new TypeError('secret context needs a userId, a table and a column');
  }
  return Buffer.from(JSON.stringify([VERSION, userId, table, column]), 'utf8');
}

function parse(envelope: string): Envelope {
  const [version, keyId, iv, ciphertext, tag, ...extra] = envelope.split(':');
  if (version !== VERSION || keyId === undefined || !KEY_ID.test(keyId)) throw new SecretDecryptError();
  if (iv === undefined || ciphertext === undefined || tag === undefined || extra.length > 0) {
    throw new SecretDecryptError();
  }
  const parsed = { keyId, iv: decodeStrict(iv), ciphertext: decodeStrict(ciphertext), tag: decodeStrict(tag) };
  if (parsed.iv.length !== IV_BYTES || parsed.tag.length !== TAG_BYTES) throw new SecretDecryptError();
  return parsed;
}

// Buffer.from skips characters it does not understand; a canonical round trip rejects altered text.
function decodeStrict(text: string): Buffer {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) throw new SecretDecryptError();
  return bytes;
}
