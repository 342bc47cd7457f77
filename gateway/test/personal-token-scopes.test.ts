import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { PERSONAL_TOKEN_SCOPES, scopeNeeded } from '@asistente/contracts';
import { EXCHANGED_TOKEN_SECONDS, newPersonalToken, TOKEN_CHECKED_HEADER } from '@asistente/kit';
import { createTestPlatform, insertAccount } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { ROUTES } from '../src/routing-table.js';

t.test('each area asks its scope: reads for GET and HEAD, writes for the rest', async (t) => {
  const cases: [string, string, string | undefined][] = [
    ['GET', '/contacts', 'contacts:read'],
    ['HEAD', '/contacts/123', 'contacts:read'],
    ['POST', '/contacts/import', 'contacts:write'],
    ['DELETE', '/contacts/123', 'contacts:write'],
    ['GET', '/whatsapp/conversations', 'whatsapp:read'],
    ['POST', '/whatsapp/messages', 'whatsapp:send'],
    ['GET', '/conversations', 'conversations:read'],
    ['POST', '/conversations/123/messages', 'conversations:write'],
    ['GET', '/conversations/account-export', undefined],
    ['GET', '/emails/123', 'emails:read'],
    ['POST', '/emails/send', 'emails:send'],
    ['GET', '/events/free-slots', 'calendar:read'],
    ['PUT', '/events/123', 'calendar:write'],
    ['GET', '/google/calendars', 'calendar:read'],
    ['POST', '/google/google-meet/create', 'calendar:write'],
    ['POST', '/meetings', 'calendar:write'],
    ['GET', '/meetings/provider', 'calendar:read'],
    ['GET', '/msteams/calendar/events', 'calendar:read'],
    ['GET', '/microsoft/calendars', 'calendar:read'],
    ['GET', '/teams/channels/1/messages', 'teams:read'],
    ['POST', '/teams/channels/1/messages', undefined],
    ['GET', '/analytics/recent', 'analytics:read'],
    ['POST', '/mcp', 'any'],
    ['GET', '/mcp', 'any'],
    // The account and the owner's own acts: never, whatever the scopes.
    ['GET', '/auth/me', undefined],
    ['POST', '/auth/tokens', undefined],
    ['DELETE', '/auth/tokens/1', undefined],
    ['PUT', '/auth/password', undefined],
    ['GET', '/account/activity', undefined],
    ['POST', '/account/export', undefined],
    ['POST', '/account/delete', undefined],
    ['GET', '/account/export', undefined],
    ['GET', '/whatsapp/retention/preview', undefined],
    ['GET', '/emails/retention/preview', undefined],
    ['GET', '/ai/retention/preview', undefined],
    ['GET', '/emails/integrations', undefined],
    ['POST', '/emails/integrations', undefined],
    ['POST', '/whatsapp/connect', undefined],
    ['POST', '/whatsapp/logout', undefined],
    ['POST', '/whatsapp/cloud/connect', undefined],
    ['POST', '/whatsapp/cloud/disconnect', undefined],
    ['POST', '/whatsapp/cloud/templates/send', 'whatsapp:send'],
    ['GET', '/whatsapp/cloud/templates', 'whatsapp:read'],
    ['GET', '/google/redirect', undefined],
    ['POST', '/teams/connect', undefined],
    ['GET', '/microsoft/login', undefined],
    ['PUT', '/ai/assistant', undefined],
    ['GET', '/ai/provider/openai/key', undefined],
    // A prefix is matched at a segment boundary.
    ['GET', '/contactsx', undefined],
    ['GET', '/accounting', undefined],
  ];
  for (const [method, path, need] of cases) t.equal(scopeNeeded(method, path), need, `${method} ${path}`);
  const used = new Set(cases.map(([, , need]) => need));
  for (const scope of PERSONAL_TOKEN_SCOPES) t.ok(used.has(scope), `${scope} opens something`);
});

t.test('the services behind get a short-lived house token with the scopes, a fresh id each request, never the personal token', async (t) => {
  const seen: IncomingHttpHeaders[] = [];
  const upstream = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const platform = await createTestPlatform(t, { config: Object.fromEntries(ROUTES.map((r) => [r.urlVariable, url])) });
  const gateway = await buildGateway(platform, 'distributed');
  t.teardown(() => gateway.close());

  const userId = randomUUID();
  const { token, hash, prefix } = newPersonalToken();
  const sql = platform.db.sql;
  await insertAccount(sql, { id: userId });
  await sql`insert into platform.personal_tokens (id, user_id, workspace_id, role, name, scopes, token_hash, prefix) values (${randomUUID()}, ${userId}, ${userId}, 'owner', 'Script', '{contacts:read,emails:read}', ${hash}, ${prefix})`;

  for (let i = 0; i < 2; i++) t.equal((await gateway.inject({ url: '/api/contacts', headers: { authorization: `Bearer ${token}` } })).statusCode, 200);
  const claims = seen.map((headers) => {
    t.notOk(JSON.stringify(headers).includes(token), 'the personal token stays at the edge');
    const [scheme, jwt] = String(headers.authorization).split(' ');
    t.equal(scheme, 'Bearer');
    return JSON.parse(Buffer.from(jwt!.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  });
  t.match(claims[0], { sub: userId, scp: ['contacts:read', 'emails:read'], iss: platform.tokens.issuer, aud: platform.tokens.audience });
  t.equal(Number(claims[0]!.exp) - Number(claims[0]!.iat), EXCHANGED_TOKEN_SECONDS, 'short-lived');
  t.not(claims[0]!.jti, claims[1]!.jti, 'a fresh id for each request');
  t.ok(seen.every((headers) => headers[TOKEN_CHECKED_HEADER]), 'with the proof it was checked');
});
