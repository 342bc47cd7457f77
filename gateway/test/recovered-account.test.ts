// Proves a password change and a reset by mail each leave 0 personal tokens working at every gateway, the MCP server included, in both topologies.
import t from 'tap';
import aiService from '@asistente/ai';
import authService from '@asistente/auth';
import contactsService from '@asistente/contacts';
import { issuePasswordResetLink } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { twoGateways } from './support/services-behind.js';

/**
 * With DATABASE_URL set: two distributed gateways on one database in front of auth, contacts and ai served as
 * a process of their own would; the password changes through one, the tokens are tried at both. Embedded: the
 * one gateway that mounts every service, asked as both.
 */
const platform = await createTestPlatform(t, { nats: true });
const [first, second] = await twoGateways(t, platform, [authService, contactsService, aiService]);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let n = 0;

async function register(): Promise<{ email: string; userId: string; session: string }> {
  const email = `recuperada${++n}.${Date.now()}@ejemplo.es`;
  const res = await first.inject({ method: 'POST', url: '/api/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });
  return { email, userId: res.json().user.id as string, session: res.json().token as string };
}

async function tokensOf(session: string): Promise<string[]> {
  const made: string[] = [];
  for (const scopes of [['contacts:read'], ['contacts:read', 'contacts:write', 'analytics:read']]) {
    const res = await first.inject({ method: 'POST', url: '/api/auth/tokens', headers: bearer(session), payload: { name: `Script ${++n}`, scopes } });
    made.push(res.json().token as string);
  }
  return made;
}

/** What each token answers at each gateway: the REST API and the MCP server. */
async function answers(tokens: string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const gateway of [first, second]) {
    for (const token of tokens) {
      statuses.push((await gateway.inject({ url: '/api/contacts', headers: bearer(token) })).statusCode);
      const mcp = await gateway.inject({
        method: 'POST',
        url: '/api/mcp',
        headers: { ...bearer(token), accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      statuses.push(mcp.statusCode);
    }
  }
  return statuses;
}

t.test('a password change: every personal token answers 401 at once, REST and MCP, at every gateway', async (t) => {
  const { session } = await register();
  const tokens = await tokensOf(session);
  t.same(await answers(tokens), Array<number>(8).fill(200), 'working before');
  const changed = await second.inject({ method: 'PUT', url: '/api/auth/password', headers: bearer(session), payload: { currentPassword: 'secreto1', newPassword: 'Nueva-Clave-7' } });
  t.equal(changed.statusCode, 200);
  t.same(await answers(tokens), Array<number>(8).fill(401), 'refused after');
  const listed = await first.inject({ url: '/api/auth/tokens', headers: bearer(session) });
  t.same(listed.json().data, [], 'the owner sees none left; the session that changed it still works');
});

t.test('a reset by mail: the same', async (t) => {
  const { userId, session } = await register();
  const tokens = await tokensOf(session);
  t.same(await answers(tokens), Array<number>(8).fill(200), 'working before');
  const link = new URL((await issuePasswordResetLink(platform.db.sql, userId, platform.config.PUBLIC_URL)).url);
  const reset = await second.inject({ method: 'POST', url: '/api/auth/password/reset', payload: { token: link.searchParams.get('token'), newPassword: 'Recuperada-8' } });
  t.equal(reset.statusCode, 200);
  t.same(await answers(tokens), Array<number>(8).fill(401), 'refused after');
  t.equal((await first.inject({ url: '/api/contacts', headers: bearer(session) })).statusCode, 401, 'and the session');
});
