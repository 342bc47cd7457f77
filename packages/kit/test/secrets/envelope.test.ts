import t from 'tap';
import { SecretBox, SecretDecryptError, generateKey, parseKeyring, type SecretContext } from '../../src/secrets/index.js';

const oldKey = `old:${generateKey()}`;
const newKey = `new:${generateKey()}`;
const oldBox = new SecretBox(parseKeyring(oldKey));
const rotatedBox = new SecretBox(parseKeyring(`${newKey},${oldKey}`));
const ctx: SecretContext = { userId: '2b0c6f4e-1111-4a4a-8888-000000000001', table: 'ai.provider_keys', column: 'api_key' };

const B64URL = /^[A-Za-z0-9_-]*$/;

function withPart(envelope: string, index: number, change: (part: string) => string): string {
  const parts = envelope.split(':');
  parts[index] = change(parts[index] ?? '');
  return parts.join(':');
}

// Flip one bit of the first decoded byte, then re-encode: a valid-looking envelope with one byte altered.
function flipByte(part: string): string {
  const bytes = Buffer.from(part, 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  return bytes.toString('base64url');
}

t.test('round trip', async (t) => {
  for (const plaintext of ['sk-proj-abc123', '', 'contraseña ñandú 🔐 日本語', 'x'.repeat(100_000)]) {
    const sealed = oldBox.seal(plaintext, ctx);
    t.equal(oldBox.open(sealed, ctx), plaintext, `length ${plaintext.length}`);
  }
});

t.test('envelope format: v1, key id, 12-byte iv, ciphertext, 16-byte tag, all base64url', async (t) => {
  const sealed = rotatedBox.seal('hola', ctx);
  const [version, keyId, iv = '', ciphertext = '', tag = '', ...rest] = sealed.split(':');
  t.equal(version, 'v1');
  t.equal(keyId, 'new');
  t.same(rest, []);
  for (const part of [iv, ciphertext, tag]) t.match(part, B64URL);
  t.equal(Buffer.from(iv, 'base64url').length, 12);
  t.equal(Buffer.from(ciphertext, 'base64url').length, 4);
  t.equal(Buffer.from(tag, 'base64url').length, 16);
  t.not(rotatedBox.seal('hola', ctx), sealed, 'fresh random iv each time');
  t.notMatch(sealed, 'hola');
});

t.test('a ciphertext moved to another user, table or column does not open', async (t) => {
  const sealed = oldBox.seal('secret', ctx);
  const moved: SecretContext[] = [
    { ...ctx, userId: '2b0c6f4e-1111-4a4a-8888-000000000002' },
    { ...ctx, table: 'email.accounts' },
    { ...ctx, column: 'refresh_token' },
    // Same characters, different split: the AAD encoding must not let these collide.
    { userId: `${ctx.userId}|ai.provider_keys`, table: 'api_key', column: 'x' },
  ];
  for (const other of moved) t.throws(() => oldBox.open(sealed, other), SecretDecryptError, JSON.stringify(other));
});

t.test('a tampered iv, ciphertext, tag or key id does not open', async (t) => {
  const sealed = oldBox.seal('secret', ctx);
  for (const [index, name] of [[2, 'iv'], [3, 'ciphertext'], [4, 'tag']] as const) {
    t.throws(() => oldBox.open(withPart(sealed, index, flipByte), ctx), SecretDecryptError, name);
  }
  // Same key under another id: the id is not bound by the key itself, so prove unknown ids fail.
  t.throws(() => oldBox.open(withPart(sealed, 1, () => 'other'), ctx), SecretDecryptError, 'unknown key id');
  t.throws(() => oldBox.open(sealed.replace(/:[^:]+$/, ':' + 'A'.repeat(16)), ctx), SecretDecryptError, 'truncated tag');
});

t.test('a malformed envelope fails with the generic error', async (t) => {
  const sealed = oldBox.seal('secret', ctx);
  const bad = [
    '',
    'secret',
    'v1:old:abc',
    `v2${sealed.slice(2)}`,
    `${sealed}:extra`,
    withPart(sealed, 1, () => 'bad id!'),
    withPart(sealed, 2, (iv) => iv.slice(0, -2)), // short iv
    withPart(sealed, 3, (c) => `${c}*`), // not base64url
    withPart(sealed, 4, (tag) => `${tag}AA`), // 17/18-byte tag
  ];
  for (const value of bad) {
    const error = t.throws(() => oldBox.open(value, ctx), SecretDecryptError, JSON.stringify(value));
    t.equal((error as Error).message, 'secret could not be decrypted');
  }
});

t.test('a value sealed with an old key still opens after a new primary is added', async (t) => {
  const sealedOld = oldBox.seal('antigua', ctx);
  t.equal(rotatedBox.primaryKeyId, 'new');
  t.equal(rotatedBox.open(sealedOld, ctx), 'antigua');
  t.throws(() => oldBox.open(rotatedBox.seal('nueva', ctx), ctx), SecretDecryptError, 'old ring lacks the new key');
});

t.test('needsRotation and reseal', async (t) => {
  const sealedOld = oldBox.seal('valor', ctx);
  t.equal(rotatedBox.needsRotation(sealedOld), true);
  const resealed = rotatedBox.reseal(sealedOld, ctx);
  t.equal(resealed.split(':')[1], 'new');
  t.equal(rotatedBox.needsRotation(resealed), false);
  t.equal(rotatedBox.open(resealed, ctx), 'valor');
  t.throws(() => rotatedBox.reseal(sealedOld, { ...ctx, column: 'other' }), SecretDecryptError);
  t.throws(() => rotatedBox.needsRotation('garbage'), SecretDecryptError);
});

t.test('sealing needs a complete context', async (t) => {
  t.throws(() => oldBox.seal('x', { ...ctx, userId: '' }), TypeError);
});
