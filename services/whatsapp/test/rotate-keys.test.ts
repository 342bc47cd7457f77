import { randomUUID } from 'node:crypto';
import t from 'tap';
import { SecretBox, generateKey, parseKeyring, registeredSecretColumns, rotateSecrets, sqlSecretStore } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { AuthStateRepository } from '../src/domain/auth-state.repository.js';
import { qrContext } from '../src/domain/account-session.js';

const oldRing = `old:${generateKey()}`;
const newRing = `new:${generateKey()}`;
const oldBox = new SecretBox(parseKeyring(oldRing));
const rotatingBox = new SecretBox(parseKeyring(`${newRing},${oldRing}`));
const newOnlyBox = new SecretBox(parseKeyring(newRing));

const platform = await createTestPlatform(t);
const { sql } = platform.db;

t.test('rotate-keys re-encrypts the auth-state rows and the pairing QR; the socket reads them after', async (t) => {
  const userId = randomUUID();
  const written = new Map<string, string | null>([
    ['creds', '{"noiseKey":{"private":{"type":"Buffer","data":"AAEC"}}}'],
    ['session-34600111222.0', '{"_sessions":{}}'],
    ['pre-key-1', '{"public":"x"}'],
  ]);
  await new AuthStateRepository(sql, oldBox).storeFor(userId, () => undefined).set(written);
  await sql`insert into whatsapp.accounts (user_id, state, qr_enc) values (${userId}, 'qr', ${oldBox.seal('data:image/png;base64,QR', qrContext(userId))})`;

  const columns = await registeredSecretColumns(sql);
  const counts = await rotateSecrets({ box: rotatingBox, columns, ...sqlSecretStore(sql, columns) });
  t.ok(counts.rotated >= 4, 'three auth-state rows and the QR rotated');
  t.equal(counts.failed, 0);

  const failures: number[] = [];
  const read = await new AuthStateRepository(sql, newOnlyBox).storeFor(userId, () => failures.push(1)).get([...written.keys()]);
  t.same(Object.fromEntries(read), Object.fromEntries(written), 'every key opens with the new key alone');
  t.same(failures, []);
  const [account] = await sql<{ qrEnc: string }[]>`select qr_enc from whatsapp.accounts where user_id = ${userId}`;
  t.equal(newOnlyBox.open(account!.qrEnc, qrContext(userId)), 'data:image/png;base64,QR');
});
