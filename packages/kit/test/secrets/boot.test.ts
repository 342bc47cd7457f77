import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { SecretsConfigError, generateKey, resolveSecretBox } from '../../src/secrets/index.js';

const quiet = { info: () => {}, warn: () => {} };
const context = { userId: 'u1', table: 'ai.provider_keys', column: 'api_key_enc' };

t.test('SECRETS_KEYS wins in either topology; a malformed value stops the boot naming it', async (t) => {
  const key = generateKey();
  for (const databaseUrl of [undefined, 'postgres://db/x']) {
    const box = await resolveSecretBox({ keys: `prod:${key}`, databaseUrl, dataDir: './nunca' }, quiet);
    t.equal(box.primaryKeyId, 'prod');
  }
  await t.rejects(resolveSecretBox({ keys: 'prod:corta', databaseUrl: undefined, dataDir: 'memory://' }, quiet), SecretsConfigError);
  await t.rejects(resolveSecretBox({ keys: 'prod:corta', databaseUrl: undefined, dataDir: 'memory://' }, quiet), /^SECRETS_KEYS: /);
});

t.test('distributed without SECRETS_KEYS is refused: replicas would each invent a key', async (t) => {
  const error = await resolveSecretBox({ keys: undefined, databaseUrl: 'postgres://db/x', dataDir: 'memory://' }, quiet).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.type(error, SecretsConfigError);
  t.match(String((error as Error).message), /^SECRETS_KEYS: is required when DATABASE_URL is set/);
});

t.test('embedded: a key ring file created once (0600) and reused; memory:// gets a throwaway key', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'asistente-keys-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const first = await resolveSecretBox({ keys: undefined, databaseUrl: undefined, dataDir: dir }, quiet);
  t.equal((await stat(join(dir, 'secrets.keys'))).mode & 0o777, 0o600);
  const second = await resolveSecretBox({ keys: undefined, databaseUrl: undefined, dataDir: dir }, quiet);
  t.equal(second.open(first.seal('sk-x', context), context), 'sk-x', 'a restart reads what the last run sealed');

  const memory = await resolveSecretBox({ keys: undefined, databaseUrl: undefined, dataDir: 'memory://' }, quiet);
  t.equal(memory.open(memory.seal('sk-y', context), context), 'sk-y');
});

// The process-level promise: a bad key ring ends the boot with one line and exit code 1, no stack trace.
const SERVER = fileURLToPath(new URL('../../../../services/ai/dist/server.js', import.meta.url));

t.test('a service process with a malformed or missing key ring exits 1 with a clear message', { skip: existsSync(SERVER) ? false : 'run npm run build first' }, async (t) => {
  // A valid JWT secret, so the boot gets as far as the key ring.
  const boot = (env: Record<string, string>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH, PORT: '0', JWT_SECRET: 'una-clave-de-prueba-de-al-menos-32-caracteres', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.once('close', (code) => resolve({ code, stderr }));
    });
  const malformed = await boot({ DATABASE_URL: 'postgres://127.0.0.1:1/nada', SECRETS_KEYS: 'k1:no-es-una-clave' });
  t.equal(malformed.code, 1);
  t.match(malformed.stderr, /^SECRETS_KEYS: key "k1" is not valid base64/);
  t.notMatch(malformed.stderr, /\n\s+at /, 'no stack trace');
  t.notMatch(malformed.stderr, 'no-es-una-clave', 'the value is not echoed');

  const missing = await boot({ DATABASE_URL: 'postgres://127.0.0.1:1/nada' });
  t.equal(missing.code, 1);
  t.match(missing.stderr, /^SECRETS_KEYS: is required when DATABASE_URL is set/);
});
