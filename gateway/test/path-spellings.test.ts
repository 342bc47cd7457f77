// A hostile holder: a token of each single scope tries every route of the API document in every spelling, and no answer reaches past its scopes.
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import aiService from '@asistente/ai';
import analyticsService from '@asistente/analytics';
import authService from '@asistente/auth';
import calendarService from '@asistente/calendar';
import contactsService from '@asistente/contacts';
import { PERSONAL_TOKEN_SCOPES, scopeNeeded, scopesAllow, type PersonalTokenScope } from '@asistente/contracts';
import emailService from '@asistente/email';
import inboxService from '@asistente/inbox';
import { exchangedTokenSigner, BAD_URL_MESSAGE, newPersonalToken, normalisePath, type App } from '@asistente/kit';
import { createTestPlatform, insertAccount } from '@asistente/kit/testing';
import teamsService from '@asistente/teams';
import webhooksService from '@asistente/webhooks';
import whatsappService from '@asistente/whatsapp';
import { collectApiDocument } from '../src/api-reference/collect-document.js';
import { buildGateway } from '../src/gateway.js';
import { rawRequest, type RawAnswer } from './support/raw-request.js';
import { distributedGateway, servicesBehind } from './support/services-behind.js';
import { API_PREFIX } from '../src/routing-table.js';
import { tokenOperations } from './support/api-operations.js';

/**
 * Embedded (no DATABASE_URL): the gateway that mounts every service. With DATABASE_URL: the distributed
 * gateway in front of every service served as a process of their own would be, so both topologies meet the
 * same table in CI's two passes. The spellings are sent raw over a socket: inject and URL strings would
 * resolve dot-segments and drop fragments before the gateway ever saw them.
 */
const distributed = Boolean(process.env.DATABASE_URL);
const platform = await createTestPlatform(t, { config: { RATE_LIMIT_TOKEN_MAX: 1_000_000 } });
const SERVICES = [authService, contactsService, calendarService, whatsappService, emailService, teamsService, aiService, analyticsService, webhooksService, inboxService];

async function listening(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The gateway, and where the services answer without it (embedded, the same app: a house token skips the gateway's exchange). */
async function edge(): Promise<{ gateway: App; services: string | undefined }> {
  if (!distributed) return { gateway: await buildGateway(platform, 'embedded'), services: undefined };
  const url = await servicesBehind(t, platform, SERVICES);
  return { gateway: await distributedGateway(t, platform, url, { RATE_LIMIT_TOKEN_MAX: 1_000_000 }), services: url };
}

const { gateway, services } = await edge();
const base = await listening(gateway);
await gateway.ready();
const { paths } = (distributed ? await collectApiDocument() : gateway.swagger()) as { paths: Record<string, Record<string, unknown>> };

// One token per scope, all of one user.
const userId = randomUUID();
await insertAccount(platform.db.sql, { id: userId });
const tokens = new Map<PersonalTokenScope, string>();
/**
 * The house token the gateway would exchange each for (what a service behind is handed), signed when asked: it
 * lives two minutes, which the earlier tests may outlast on a busy machine.
 */
const grants = new Map<PersonalTokenScope, string>();
const signExchanged = exchangedTokenSigner(platform.tokens);
const exchanged = (scope: PersonalTokenScope) => signExchanged({ id: grants.get(scope)!, userId, workspaceId: userId, role: 'owner', scopes: [scope] });
for (const scope of PERSONAL_TOKEN_SCOPES) {
  const { token, hash, prefix } = newPersonalToken();
  const id = randomUUID();
  await platform.db.sql`insert into platform.personal_tokens (id, user_id, workspace_id, role, name, scopes, token_hash, prefix) values (${id}, ${userId}, ${userId}, 'owner', ${scope}, ${[scope]}, ${hash}, ${prefix})`;
  tokens.set(scope, token);
  grants.set(scope, id);
}


const encode = (char: string, lower = false) => {
  const hex = char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
  return `%${lower ? hex.toLowerCase() : hex}`;
};

/**
 * The spellings of `/api<rest>`. The first six name the same route as the plain path (each letter escaped,
 * escapes in lower case, a fragment, dot-segments); the rest name another path or none, and must never
 * reach further than the plain one would.
 */
function spellings(rest: string): { same: string[]; other: string[] } {
  const [, first, ...more] = rest.split('/');
  const tail = more.length ? `/${more.join('/')}` : '';
  return {
    same: [
      `${API_PREFIX}${rest}`,
      `${API_PREFIX}${rest.replace(/[a-z]/gi, (c) => encode(c))}`,
      `${API_PREFIX}${rest.replace(/\/([a-z])/gi, (_w, c: string) => `/${encode(c, true)}`)}`,
      `${API_PREFIX}${rest}#x`,
      tail ? `${API_PREFIX}/${first}/.${tail}` : `${API_PREFIX}/./${first}`,
      `${API_PREFIX}/zz/../${first}${tail}`,
    ],
    other: [
      `${API_PREFIX}/${first}%2F${more.join('/')}`,
      `${API_PREFIX}/${first}%252F${more.join('/')}`,
      `${API_PREFIX}/${first}/${tail}`,
      `${API_PREFIX}${rest.toUpperCase()}`,
      `/API${rest}`,
      `${API_PREFIX}${rest}/`,
      `${API_PREFIX}${rest};x`,
      `${API_PREFIX}/%C0%AE%C0%AE${rest}`,
      `${API_PREFIX}${rest}%00`,
    ],
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
t.teardown(() => agent.destroy());

type Answer = RawAnswer;

/** `method path` sent as written, with the token of a scope; the body is read when it is JSON. */
const send = (method: string, path: string, token: string, to = base): Promise<Answer> => rawRequest(agent, to, method, path, `Bearer ${token}`);

/**
 * An answer that says no before any handler ran: the scope, a path with no single meaning, text no route
 * takes (the input guard, which runs before every handler), or no such route.
 */
function refusal(answer: Answer): boolean {
  return (
    (answer.status === 403 && answer.code === 'TOKEN_SCOPE') ||
    (answer.status === 400 && answer.code === 'INVALID_CHARACTERS') ||
    (answer.status === 400 && answer.message === BAD_URL_MESSAGE) ||
    (answer.status === 404 && answer.message?.startsWith('Ruta no encontrada') === true)
  );
}

const operations = tokenOperations(paths, randomUUID);

/**
 * What the table says of `path` for a token of `scope`: the verdict of the path the router will route (a
 * spelling of another path is judged as that path), or a 400 when it has no single meaning.
 */
function verdict(method: string, path: string, scope: PersonalTokenScope): 'allowed' | 'refused' | 'invalid' {
  const normal = normalisePath(path);
  if (normal === undefined) return 'invalid';
  return normal.startsWith(`${API_PREFIX}/`) && scopesAllow([scope], method, normal.slice(API_PREFIX.length)) ? 'allowed' : 'refused';
}

t.test('each spelling of the same path is that path', async (t) => {
  const wrong = operations.flatMap(({ rest }) => spellings(rest).same.filter((path) => normalisePath(path.split('#')[0]!) !== `${API_PREFIX}${rest}`));
  t.same(wrong, []);
});

t.test('no token reaches a route outside its scopes, however the path is spelled', async (t) => {
  t.ok(operations.length > 100, `${operations.length} operations of the document`);
  let tries = 0;
  const breaches: string[] = [];
  for (const { method, rest } of operations) {
    const { same, other } = spellings(rest);
    await Promise.all(
      PERSONAL_TOKEN_SCOPES.map(async (scope) => {
        for (const path of [...same, ...other]) {
          const expected = verdict(method, path.split('#')[0]!, scope);
          // Within the scopes, the answer is the route's own business (and its handler would run).
          if (expected === 'allowed') continue;
          tries++;
          const answer = await send(method, path, tokens.get(scope)!);
          const refused = expected === 'invalid' ? answer.status === 400 && answer.message === BAD_URL_MESSAGE : refusal(answer);
          if (!refused) breaches.push(`${scope} ${method} ${path} → ${answer.status} ${answer.code ?? ''}`);
        }
      }),
    );
  }
  t.same(breaches, [], `0 answers outside the scopes in ${tries} tries`);
  t.comment(`${distributed ? 'distributed' : 'embedded'}: ${operations.length} operations, ${tries} tries outside the scopes, ${breaches.length} answered`);
});

t.test('a token with the scope gets the same answer in every spelling of the same path', async (t) => {
  const reads = operations.filter(({ method, rest }) => method === 'GET' && scopeNeeded(method, rest) !== undefined && scopeNeeded(method, rest) !== 'any');
  t.ok(reads.length > 30, `${reads.length} reads`);
  const differing: string[] = [];
  for (const { method, rest } of reads) {
    const token = tokens.get(scopeNeeded(method, rest) as PersonalTokenScope)!;
    const [plain, ...others] = spellings(rest).same;
    const expected = await send(method, plain!, token);
    if (refusal(expected)) differing.push(`${plain} refused plainly: ${expected.status} ${expected.code ?? ''}`);
    for (const path of others) {
      const answer = await send(method, path, token);
      if (answer.status !== expected.status || answer.code !== expected.code) differing.push(`${path}: ${answer.status} ${answer.code ?? ''}, plainly ${expected.status}`);
    }
  }
  t.same(differing, []);
});

t.test('each service refuses on its own what its route does not open to the token, whatever the gateway did', async (t) => {
  // Distributed: the services without the gateway. Embedded: a house token is no personal token, so the
  // gateway's exchange (and its scope check) never runs: only the route's own check stands.
  const target = services ?? base;
  const strip = (path: string) => (services ? path.slice(API_PREFIX.length) : path);
  let tries = 0;
  const breaches: string[] = [];
  for (const { method, rest } of operations) {
    await Promise.all(
      PERSONAL_TOKEN_SCOPES.filter((scope) => !scopesAllow([scope], method, rest)).map(async (scope) => {
        tries++;
        const answer = await send(method, strip(`${API_PREFIX}${rest}`), exchanged(scope), target);
        if (!refusal(answer)) breaches.push(`${scope} ${method} ${rest} → ${answer.status} ${answer.code ?? ''}`);
      }),
    );
  }
  t.ok(tries > 1000, `${tries} tries`);
  t.same(breaches, [], `0 answers outside the scopes in ${tries} tries at the services`);
});
