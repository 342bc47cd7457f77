import { Writable } from 'node:stream';
import t from 'tap';
import { createLogger } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import aiService from '../src/app.js';
import { openAiKeyContext } from '../src/domain/provider-keys.service.js';

const URL = '/ai/provider/openai/key';
const KEY = 'sk-proj-Zq8vN3xR5tL1wK7mP2yB9cD4fG6hJ0aSXYZW';

/** A logger at the most verbose level writing to memory, so the test sees every line the service logs. */
function memoryLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: createLogger('trace', 'test', {}, stream), text: () => lines.join('') };
}

// One platform for the file (a fresh PGlite costs seconds); every test signs in as users of its own.
const logs = memoryLogger();
const platform = await createTestPlatform(t, { log: logs.log });
const app = await buildServiceApp(t, aiService, platform);

t.test('save, status, replace and delete a key; only the last 4 characters come back', async (t) => {
  const { authorization } = signToken(app);
  const call = (method: 'GET' | 'PUT' | 'DELETE', payload?: object) =>
    app.inject({ method, url: URL, headers: { authorization }, ...(payload ? { payload } : {}) });

  t.same((await call('GET')).json(), { exists: false, last4: null, valid: false }, 'nothing saved yet');

  const saved = await call('PUT', { apiKey: `  ${KEY}\n` });
  t.equal(saved.statusCode, 200);
  t.same(saved.json(), { success: true, last4: 'XYZW' }, 'trimmed before the last 4 are taken');
  t.same((await call('GET')).json(), { exists: true, last4: 'XYZW', valid: true });

  const replaced = await call('PUT', { apiKey: 'sk-otra-clave-de-prueba-1234567890-ABCD' });
  t.same(replaced.json(), { success: true, last4: 'ABCD' }, 'a second save replaces the first');
  t.same((await call('GET')).json(), { exists: true, last4: 'ABCD', valid: true });

  const deleted = await call('DELETE');
  t.equal(deleted.statusCode, 200);
  t.same(deleted.json(), { success: true });
  t.same((await call('GET')).json(), { exists: false, last4: null, valid: false });
  t.same((await call('DELETE')).json(), { success: true }, 'deleting again is not an error');
});

t.test('malformed keys answer 400 with the Spanish message and store nothing', async (t) => {
  const { authorization } = signToken(app);
  const put = (payload: unknown) => app.inject({ method: 'PUT', url: URL, headers: { authorization }, payload: payload as object });
  const cases: [unknown, string][] = [
    [{ apiKey: '' }, 'Ingresa tu API key'],
    [{ apiKey: '   \n' }, 'Ingresa tu API key'],
    [{}, 'Ingresa tu API key'],
    [{ apiKey: 12345 }, 'Ingresa tu API key'],
    [{ apiKey: 'pk-live-1234567890abcdefghij' }, 'La API key debe empezar por sk-'],
    [{ apiKey: 'sk-corta' }, 'La API key no tiene un formato válido: cópiala completa y sin espacios'],
    [{ apiKey: 'sk-proj-abcdefgh ijklmnopqrstu' }, 'La API key no tiene un formato válido: cópiala completa y sin espacios'],
    [{ apiKey: `sk-${'a'.repeat(600)}` }, 'La API key es demasiado larga'],
    [{ apiKey: KEY, extra: true }, 'Campo no permitido: "extra"'],
  ];
  for (const [payload, message] of cases) {
    const response = await put(payload);
    t.equal(response.statusCode, 400, JSON.stringify(payload).slice(0, 60));
    t.equal(response.json().message, message);
  }
  t.same((await app.inject({ url: URL, headers: { authorization } })).json(), { exists: false, last4: null, valid: false });
});

t.test("a user never sees or deletes another user's key", async (t) => {
  const ana = signToken(app);
  const luis = signToken(app);
  await app.inject({ method: 'PUT', url: URL, headers: { authorization: ana.authorization }, payload: { apiKey: KEY } });

  t.same((await app.inject({ url: URL, headers: { authorization: luis.authorization } })).json(), { exists: false, last4: null, valid: false });
  await app.inject({ method: 'DELETE', url: URL, headers: { authorization: luis.authorization } });
  t.same((await app.inject({ url: URL, headers: { authorization: ana.authorization } })).json(), { exists: true, last4: 'XYZW', valid: true });
  t.equal((await app.inject({ url: URL })).statusCode, 401, 'no token, no answer');
});

t.test('the plaintext key is in no response, no log line and no database row', async (t) => {
  const { authorization, userId } = signToken(app);
  const responses = [
    await app.inject({ method: 'PUT', url: URL, headers: { authorization }, payload: { apiKey: KEY } }),
    await app.inject({ url: URL, headers: { authorization } }),
    // A rejected body must not echo the value either.
    await app.inject({ method: 'PUT', url: URL, headers: { authorization }, payload: { apiKey: `${KEY} con espacio` } }),
  ];
  for (const response of responses) t.notMatch(response.body, KEY);

  const rows = await platform.db.sql<Record<string, unknown>[]>`select * from ai.provider_keys`;
  t.notMatch(JSON.stringify(rows), KEY, 'no column of any row holds the key');
  t.notMatch(JSON.stringify(rows), 'Zq8vN3xR5tL1wK7mP2yB9cD4fG6hJ0aS', 'nor any recognisable part of it');
  const row = rows.find((r) => r.userId === userId);
  const sealed = String(row?.apiKeyEnc);
  t.match(sealed, /^v1:[\w-]+:[\w-]+:[\w-]+:[\w-]+$/, 'an AES-256-GCM envelope');
  t.equal(platform.secrets.open(sealed, openAiKeyContext(userId)), KEY, 'which opens to the key for its owner');
  t.throws(() => platform.secrets.open(sealed, openAiKeyContext(signToken(app).userId)), 'and for no one else (AAD)');

  const logged = logs.text();
  t.match(logged, /incoming request/, 'the request logs were captured');
  t.notMatch(logged, KEY, 'no log line carries the key');
});
