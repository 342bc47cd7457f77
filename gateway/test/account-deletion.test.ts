import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { AccountDeletionProgress } from '@asistente/contracts';
import { OPENAI_KEY_COLUMN } from '@asistente/ai';
import { GOOGLE_REFRESH_TOKEN_COLUMN } from '@asistente/calendar';
import { EMAIL_CREDENTIALS_COLUMN } from '@asistente/email';
import { MICROSOFT_ACCESS_TOKEN_COLUMN } from '@asistente/teams';
import { WEBHOOK_SECRET_COLUMN } from '@asistente/webhooks';
import { WHATSAPP_AUTH_STATE_COLUMN } from '@asistente/whatsapp';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';

/**
 * "Eliminar mi cuenta" end to end through the gateway that mounts every service: embedded (PGlite, the
 * in-process bus), or with DATABASE_URL and NATS_URL set PostgreSQL and JetStream, each service's erasure a
 * durable consumer of the stream. Two users hold data in every schema; one is deleted; every table with a
 * `user_id` column in every schema (read from information_schema) holds 0 rows of them, and the other
 * user's counts are what they were.
 */

// Google's revocation endpoint, as a local peer: it takes every token but the one it is told to refuse.
const revoked: string[] = [];
const REFUSED = 'gmail-refresh-refused';
const google = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://peer');
    const token = url.searchParams.get('token') ?? new URLSearchParams(body).get('token') ?? '';
    if (token === REFUSED) {
      response.writeHead(503).end();
      return;
    }
    revoked.push(token);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => google.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise<void>((resolve) => google.close(() => resolve())));
const googleUrl = `http://127.0.0.1:${(google.address() as AddressInfo).port}`;

const platform = await createTestPlatform(t, {
  nats: true,
  config: { GOOGLE_CLIENT_ID: 'client-id', GOOGLE_CLIENT_SECRET: 'client-secret', GOOGLE_REVOKE_URL: `${googleUrl}/revoke` },
});
const gateway = await buildGateway(platform, 'embedded');
await gateway.ready();
t.teardown(() => gateway.close());
const sql = platform.db.sql;
const box = platform.secrets;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const PASSWORD = 'clave-larga-1';

/** Set-up runs before any test: a failed step throws (tap ends a root test that asserts between awaits). */
function succeeded(res: { statusCode: number; body: string }, what: string): void {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
}

interface Owner {
  userId: string;
  token: string;
  personalToken: string;
}

async function register(name: string): Promise<Owner> {
  const email = `${name}.${Date.now()}@ejemplo.es`;
  const res = await gateway.inject({ method: 'POST', url: '/api/auth/register', payload: { firstName: name, lastName: 'Prueba', email, password: PASSWORD } });
  succeeded(res, `${name} registered`);
  const { token, user } = res.json<{ token: string; user: { id: string } }>();
  await gateway.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });
  const made = await gateway.inject({ method: 'POST', url: '/api/auth/tokens', headers: bearer(token), payload: { name: 'Script', scopes: ['contacts:read'] } });
  succeeded(made, 'personal token created');
  return { userId: user.id, token, personalToken: made.json<{ token: string }>().token };
}

/** Data in every service: through the API where it needs no provider, as the repositories store it otherwise. */
async function seed(owner: Owner, tag: string): Promise<void> {
  const { userId, token } = owner;
  const api = async (method: 'POST' | 'DELETE', url: string, payload?: object) => {
    const res = await gateway.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
    succeeded(res, `${method} ${url}`);
    return (res.body ? res.json() : {}) as { id?: string };
  };
  const ids: string[] = [];
  for (const n of [1, 2, 3]) ids.push((await api('POST', '/api/contacts', { firstName: `Cliente${n}`, lastName: tag, email: `c${n}.${tag}@ejemplo.es` })).id!);
  await api('DELETE', `/api/contacts/${ids[0]}`);
  await api('POST', '/api/contacts/views', { name: `Vista ${tag}` });
  await api('POST', '/api/emails/templates', { name: `Plantilla ${tag}`, subject: 'Hola', body: 'Buenos días' });
  await api('POST', '/api/whatsapp/auto-replies', { keyword: `precio${tag}`, response: 'Te lo envío' });

  const seal = (plain: string, column: { table: string; column: string }) => box.seal(plain, { userId, table: column.table, column: column.column });
  await sql`insert into whatsapp.accounts (user_id, linked, state, phone) values (${userId}, true, 'disconnected', '34600000000')`;
  await sql`insert into whatsapp.auth_state (user_id, key, value_enc) values (${userId}, 'creds', ${seal('{"me":1}', WHATSAPP_AUTH_STATE_COLUMN)})`;
  const [chat] = await sql<{ id: string }[]>`
    insert into whatsapp.chats (user_id, jid, name, last_at, last_text) values (${userId}, '34611111111@s.whatsapp.net', 'Cliente', now(), 'Hola')
    returning id`;
  await sql`
    insert into whatsapp.messages (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, sent_at, status)
    values (${userId}, ${chat!.id}, ${`wa-${tag}`}, 'incoming', 'phone', '34611111111@s.whatsapp.net', 'me', 'Hola', now(), 'received')`;

  const credentials = JSON.stringify({ kind: 'oauth', accessToken: `gmail-access-${tag}`, refreshToken: tag === 'A' ? REFUSED : `gmail-refresh-${tag}`, expiresAt: Date.now() + 3_600_000 });
  const [account] = await sql<{ id: string }[]>`
    insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user, smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc, connected)
    values (${userId}, 'gmail', ${`buzon.${tag}@gmail.com`}, 'imap.gmail.com', 993, true, 'u', 'smtp.gmail.com', 465, true, 'u', ${seal(credentials, EMAIL_CREDENTIALS_COLUMN)}, false)
    returning id`;
  await sql`
    insert into email.messages (user_id, account_id, folder, uid, subject, sent_at) values (${userId}, ${account!.id}, 'inbox', 1, 'Factura', now())`;

  await sql`
    insert into calendar.google_accounts (user_id, email, refresh_token_enc) values (${userId}, ${`cal.${tag}@gmail.com`}, ${seal(`calendar-refresh-${tag}`, GOOGLE_REFRESH_TOKEN_COLUMN)})`;
  await sql`insert into calendar.calendars (user_id, id, summary, is_primary) values (${userId}, 'primary', 'Agenda', true)`;
  await sql`
    insert into calendar.events (user_id, calendar_id, id, summary, all_day, start_at, end_at, normalized)
    values (${userId}, 'primary', ${`ev-${tag}`}, 'Reunión', false, now(), now() + interval '1 hour', '{}')`;

  await sql`
    insert into teams.connections (user_id, ms_user_id, access_token_enc, expires_at)
    values (${userId}, ${`ms-${tag}`}, ${seal(`ms-access-${tag}`, MICROSOFT_ACCESS_TOKEN_COLUMN)}, now() + interval '1 hour')`;

  await sql`insert into ai.provider_keys (user_id, provider, api_key_enc, last4) values (${userId}, 'openai', ${seal('sk-test-1234', OPENAI_KEY_COLUMN)}, '1234')`;
  await sql`
    insert into ai.assistant_configs (user_id, name, goal, tone, system_prompt, variables, custom_vars, internal_sources, allow_web, model, temperature, max_tokens)
    values (${userId}, 'Asistente', 'Atender', 'cercano', 'Eres útil', '{}', '{}', '{contacts}', false, 'gpt-4o-mini', 0.5, 500)`;
  await sql`
    insert into ai.runs (id, user_id, trigger, chat_id, model, prompt_tokens, completion_tokens, cost_usd)
    values (${randomUUID()}, ${userId}, 'whatsapp', '34611111111@s.whatsapp.net', 'gpt-4o-mini', 10, 5, 0.001)`;
  await sql`insert into ai.chat_states (user_id, chat_id, paused, reason) values (${userId}, '34611111111@s.whatsapp.net', true, 'manual')`;

  await sql`
    insert into webhooks.endpoints (id, user_id, url, events, secret_enc, enabled)
    values (${randomUUID()}, ${userId}, 'https://example.com/hook', '{contacts.contact.created}', ${seal('whsec_x', WEBHOOK_SECRET_COLUMN)}, false)`;
}

/** Every table of every schema with a `user_id` column. */
async function userTables(): Promise<string[]> {
  const rows = await sql<{ tableSchema: string; tableName: string }[]>`
    select c.table_schema, c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.column_name = 'user_id' and t.table_type = 'BASE TABLE'
      and c.table_schema not in ('pg_catalog', 'information_schema')
    order by 1, 2`;
  return rows.map((r) => `${r.tableSchema}.${r.tableName}`);
}

async function countsOf(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await userTables()) {
    const [row] = await sql<{ n: string }[]>`select count(*) as n from ${sql(table)} where user_id = ${userId}`;
    counts[table] = Number(row!.n);
  }
  return counts;
}

/**
 * The user's events have all reached the consumers that write from them (the security log in auth, the
 * rollups in analytics), so the counts no longer move by themselves.
 */
async function settled(userId: string): Promise<void> {
  const outboxes = (await userTables()).filter((table) => table.endsWith('.outbox'));
  await waitFor(async () => {
    await platform.relay.drain();
    let pending = 0;
    for (const outbox of outboxes) {
      const [row] = await sql<{ n: string }[]>`
        select count(*) as n from ${sql(outbox)} o
        where o.user_id = ${userId} and (
          o.published_at is null
          or (o.type = 'security.activity.recorded' and not exists (select 1 from auth.security_activity s where s.id = o.id))
          or (o.type <> 'security.activity.recorded' and not exists (select 1 from analytics.events e where e.id = o.id)))`;
      pending += Number(row!.n);
    }
    return pending === 0;
  });
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not reached');
}

async function progressOf(id: string): Promise<AccountDeletionProgress> {
  const res = await gateway.inject({ url: `/api/account/delete/${id}` });
  t.equal(res.statusCode, 200);
  return res.json<AccountDeletionProgress>();
}

const a = await register('ana');
const b = await register('bruno');
await seed(a, 'A');
await seed(b, 'B');
await settled(a.userId);
await settled(b.userId);

t.test('a wrong password answers 400 in Spanish and erases nothing', async (t) => {
  const before = await countsOf(a.userId);
  const res = await gateway.inject({ method: 'POST', url: '/api/account/delete', headers: bearer(a.token), payload: { password: 'otra-clave' } });
  t.equal(res.statusCode, 400);
  t.match(res.json(), { statusCode: 400, code: 'INVALID_PASSWORD', message: /contraseña no es correcta/ });
  const missing = await gateway.inject({ method: 'POST', url: '/api/account/delete', headers: bearer(a.token), payload: {} });
  t.equal(missing.statusCode, 400);
  t.match(missing.json<{ message: string }>().message, /contraseña/);
  t.same(await countsOf(a.userId), before, 'every row is still there');
  t.equal((await gateway.inject({ url: '/api/auth/me', headers: bearer(a.token) })).statusCode, 200, 'the session still works');
});

t.test('a personal token cannot delete the account', async (t) => {
  const res = await gateway.inject({ method: 'POST', url: '/api/account/delete', headers: bearer(a.personalToken), payload: { password: PASSWORD } });
  t.equal(res.statusCode, 403);
});

t.test('deleting the account erases the user in every schema, ends every session, revokes at Google, spares the other user', async (t) => {
  const seeded = await countsOf(a.userId);
  const seededTables = Object.entries(seeded).filter(([, n]) => n > 0).map(([table]) => table);
  t.ok(seededTables.length >= 25, `the user holds rows in ${seededTables.length} tables before`);
  for (const schema of ['auth', 'platform', 'contacts', 'whatsapp', 'email', 'calendar', 'teams', 'ai', 'analytics', 'webhooks']) {
    t.ok(seededTables.some((table) => table.startsWith(`${schema}.`)), `${schema} holds data of the user`);
  }
  const otherBefore = await countsOf(b.userId);

  const res = await gateway.inject({ method: 'POST', url: '/api/account/delete', headers: bearer(a.token), payload: { password: PASSWORD } });
  t.equal(res.statusCode, 202);
  const { id } = res.json<{ id: string }>();

  // At once, before any service has erased anything: the session and the personal token work nowhere.
  t.equal((await gateway.inject({ url: '/api/auth/me', headers: bearer(a.token) })).statusCode, 401, 'the session is over in auth');
  t.equal((await gateway.inject({ url: '/api/contacts', headers: bearer(a.token) })).statusCode, 401, 'and in every other service');
  t.equal((await gateway.inject({ url: '/api/contacts', headers: bearer(a.personalToken) })).statusCode, 401, 'the personal token too');
  t.equal((await gateway.inject({ method: 'POST', url: '/api/account/delete', headers: bearer(a.token), payload: { password: PASSWORD } })).statusCode, 401, 'twice is refused');

  await waitFor(async () => (await progressOf(id)).status === 'done');
  const progress = await progressOf(id);
  t.equal(progress.services.length, 10, 'every service reported');
  t.ok(progress.services.every((s) => s.status === 'done'), 'done everywhere');
  t.ok(progress.finishedAt);
  const problemsOf = (service: string) => progress.services.find((s) => s.service === service)!.problems;
  t.match(problemsOf('email'), [/Google no confirmó.*buzon\.A@gmail\.com/], "the refused Gmail revocation is reported, the mail is erased all the same");
  t.match(problemsOf('whatsapp'), [/Dispositivos vinculados/], 'a linked WhatsApp with no live socket is reported');
  t.same(problemsOf('calendar'), [], 'the calendar grant was revoked');
  t.ok(revoked.includes('calendar-refresh-A'), "the calendar's refresh token reached Google's revocation endpoint");
  t.notOk(revoked.some((token) => token.endsWith('-B')), "nothing of the other user's was revoked");

  await settled(b.userId);
  const after = await countsOf(a.userId);
  const left = Object.entries(after).filter(([, n]) => n > 0);
  t.same(left, [], 'no table with a user_id column holds a row of the deleted user');
  t.same(await countsOf(b.userId), otherBefore, "the other user's counts are what they were");
  const [record] = await sql`select * from auth.account_deletions where id = ${id}`;
  t.notOk(JSON.stringify(record).includes(a.userId), 'the deletion record does not name the user');

  // Erasing again (a redelivery after a crash) is harmless and reports done again.
  await sql.begin((tx) =>
    platform.outbox('auth').append(tx, [{ id: randomUUID(), type: 'user.deleted', userId: a.userId, occurredAt: new Date().toISOString(), data: { deletionId: id } }]),
  );
  await settled(b.userId);
  await waitFor(async () => Object.values(await countsOf(a.userId)).every((n) => n === 0));
  t.equal((await progressOf(id)).status, 'done');
  t.same(await countsOf(b.userId), otherBefore);
  t.equal((await gateway.inject({ url: '/api/contacts', headers: bearer(b.token) })).json<{ total: number }>().total, 2, 'the other user reads their contacts');
});

t.test('the progress of an unknown deletion is a 404, a malformed id a 400', async (t) => {
  t.equal((await gateway.inject({ url: `/api/account/delete/${randomUUID()}` })).statusCode, 404);
  const bad = await gateway.inject({ url: '/api/account/delete/nada' });
  t.equal(bad.statusCode, 400);
});
