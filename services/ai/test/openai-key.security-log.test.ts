import t from 'tap';
import authService from '@asistente/auth';
import { buildServicesApp, createTestPlatform } from '@asistente/kit/testing';
import aiService from '../src/app.js';

// Auth beside ai, as the embedded gateway mounts them: ai's outbox events land in auth's security log.
const platform = await createTestPlatform(t, { nats: true });
const app = await buildServicesApp(t, [authService, aiService], platform);
const sql = platform.db.sql;
const KEY = 'sk-proj-Zq8vN3xR5tL1wK7mP2yB9cD4fG6hJ0aSXYZW';

async function rowsOf(userId: string, count: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const [row] = await sql<{ n: string }[]>`select count(*) as n from auth.security_activity where user_id = ${userId}`;
    if (Number(row!.n) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`security activity of ${userId} never reached ${count} rows`);
}

t.test('saving and removing the OpenAI key are logged, without the key', async (t) => {
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { firstName: 'Ana', lastName: 'López', email: `clave.${Date.now()}@ejemplo.es`, password: 'secreto1' },
  });
  const { user, token } = registered.json();
  const headers = { authorization: `Bearer ${token}`, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' };
  t.equal((await app.inject({ method: 'PUT', url: '/api/ai/provider/openai/key', payload: { apiKey: KEY }, headers })).statusCode, 200);
  await rowsOf(user.id, 1);
  t.equal((await app.inject({ method: 'DELETE', url: '/api/ai/provider/openai/key', headers })).statusCode, 200);
  await rowsOf(user.id, 2);
  // Deleting a key that is not there changes nothing, so logs nothing.
  t.equal((await app.inject({ method: 'DELETE', url: '/api/ai/provider/openai/key', headers })).statusCode, 200);
  const page = await app.inject({ url: '/api/account/activity', headers });
  t.equal(page.statusCode, 200);
  const body = page.json();
  t.same(body.data.map((r: { type: string }) => r.type), ['openai_key.removed', 'openai_key.saved']);
  t.equal(body.pagination.total, 2);
  t.match(body.data[0], { userAgent: /Firefox/, detail: {} });
  t.notMatch(JSON.stringify(body), /sk-proj|XYZW/, 'no key, not even its end');
  const [outbox] = await sql<{ n: string }[]>`select count(*) as n from ai.outbox where data::text like ${'%' + KEY.slice(-8) + '%'}`;
  t.equal(Number(outbox!.n), 0, 'no key in the outbox either');
});
