import fc from 'fast-check';
import t from 'tap';
import { createTestPlatform, signToken } from '@asistente/kit/testing';
import { asText, fillPath, isHouseError, isStream, mountEverything, OFFLINE_PROVIDERS, parseJson, pathParams, queryString, within, type RouteInfo } from './reliability/harness.js';
import { RAW_BODY_KINDS } from './reliability/raw-body-arbitrary.js';
import { hostileArbitrary, validArbitrary, type JsonSchema } from './reliability/schema-arbitrary.js';

/**
 * The standing suite's in-process part (issue 16): a cross-tenant matrix and
 * schema-driven fuzzing over every route of every service, both generated
 * from the routing table and the routes' own schemas. `npm test` runs a
 * bounded form; `npm run reliability` sets RELIABILITY_FULL=1 (400 cases per
 * route). Every service must hold.
 */
const FULL = process.env.RELIABILITY_FULL === '1';
const CASES_PER_ROUTE = FULL ? 400 : 8;
/** Raw uploads per route that takes them, in equal shares of each kind (a few are over 1 MB). */
const RAW_CASES_PER_ROUTE = FULL ? 400 : 8;
const IDS_PER_ROUTE = FULL ? Infinity : 3;
const INJECT_TIMEOUT_MS = 15_000;
/**
 * A raw upload of 100,000 one-character lines costs ~1 s of import work, and ~10x that under tap, whose
 * async hooks track every promise of the per-line pipeline: on a loaded 2-core machine it outgrew 15 s.
 */
const UPLOAD_TIMEOUT_MS = 120_000;

const platform = await createTestPlatform(t, {
  config: { ...OFFLINE_PROVIDERS, RATE_LIMIT_LOGIN_MAX: 1_000_000, RATE_LIMIT_REGISTER_MAX: 1_000_000, HASH_QUEUE_MAX: 10_000 },
});
const { app, routes } = await mountEverything(platform);
t.teardown(() => app.close());
const sql = platform.db.sql;

async function register(name: string): Promise<{ id: string; authorization: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { firstName: name, lastName: 'Prueba', email: `${name.toLowerCase()}.${Date.now()}@ejemplo.es`, password: 'clave-larga-1' },
  });
  const { user, token } = res.json<{ user: { id: string }; token: string }>();
  return { id: user.id, authorization: `Bearer ${token}` };
}

const victim = await register('Victima');
const attacker = await register('Atacante');

/** Tables holding users' rows: every schema's table with a user_id, outboxes aside. */
const tables = await sql<{ schema: string; table: string }[]>`
  select c.table_schema as schema, c.table_name as table
  from information_schema.columns c join information_schema.tables tb using (table_schema, table_name)
  where c.column_name = 'user_id' and tb.table_type = 'BASE TABLE' and c.table_name <> 'outbox'
    and c.table_schema not in ('platform', 'pg_catalog', 'information_schema')
  order by 1, 2`;

/**
 * Seeding skips what starts work that goes on by itself afterwards (a WhatsApp socket that retries and
 * records its state, a provider connection): the victim's rows must only move if a request moves them.
 */
const STARTS_BACKGROUND_WORK = /\/(connect|reconnect|sync[^/]*|link|pair|start|login|logout|disconnect)$/;

async function victimSnapshot(): Promise<Map<string, string>> {
  await platform.relay.drain();
  const snapshot = new Map<string, string>();
  for (const { schema, table } of tables) {
    const rows = await sql.unsafe(`select * from "${schema}"."${table}" where user_id = $1 order by 1`, [victim.id]);
    snapshot.set(`${schema}.${table}`, JSON.stringify(rows));
  }
  return snapshot;
}

async function victimIds(): Promise<string[]> {
  const ids = new Set<string>();
  for (const { schema, table } of tables) {
    const columns = await sql<{ column: string }[]>`
      select column_name as column from information_schema.columns
      where table_schema = ${schema} and table_name = ${table} and data_type = 'uuid' and column_name <> 'user_id'`;
    for (const { column } of columns) {
      const rows = await sql.unsafe(`select "${column}"::text as v from "${schema}"."${table}" where user_id = $1 and "${column}" is not null`, [victim.id]);
      for (const row of rows as unknown as { v: string }[]) ids.add(row.v);
    }
  }
  return [...ids];
}

const sample = <T>(arbitrary: fc.Arbitrary<T>, n: number, seed: number): T[] => fc.sample(arbitrary, { numRuns: n, seed });

/** What one answer must be: below 500 (a 503 in the house shape from a service that is not configured is tolerated), errors in the house shape. */
function judge(status: number, text: string): string | undefined {
  const body = parseJson(text);
  if (status >= 400 && !isHouseError(body)) return `status ${status} without the error shape: ${text.slice(0, 160)}`;
  if (status >= 500 && !(status === 503 && (body as { code?: string }).code !== 'INTERNAL')) return `status ${status}: ${text.slice(0, 160)}`;
  return undefined;
}

const report = (t: Reporter, route: RouteInfo, ok: boolean, message: string) =>
  t.ok(ok, `${route.method} ${route.url}: ${message}`);

/** The part of tap's Test `report` uses. */
interface Reporter {
  ok(value: unknown, message: string): unknown;
}

const testable = routes.filter((r) => !isStream(r));

t.test('cross-tenant matrix: every route x id slot with the other user ids answers 4xx and changes nothing', async (t) => {
  // The victim owns something in every service that lets a user create things from a body alone.
  const seeding = testable.filter((r) => r.method === 'POST' && pathParams(r.url).length === 0 && !r.url.startsWith('/api/auth') && !STARTS_BACKGROUND_WORK.test(r.url));
  for (const route of seeding) {
    for (const body of sample(validArbitrary(route.body ?? { type: 'object' }), 2, 7)) {
      await within(app.inject({ method: 'POST', url: route.url, headers: { authorization: victim.authorization }, payload: body as object }), INJECT_TIMEOUT_MS);
    }
  }
  await app.inject({ method: 'POST', url: '/api/contacts', headers: { authorization: victim.authorization }, payload: { firstName: 'Marta', lastName: 'Díaz', email: 'marta@ejemplo.es' } });
  const ids = await victimIds();
  t.ok(ids.length > 0, `the victim owns ${ids.length} ids across ${tables.length} tables`);
  const before = await victimSnapshot();
  let attempts = 0;
  for (const route of testable.filter((r) => !r.public && !r.url.startsWith('/api/auth'))) {
    const params = pathParams(route.url);
    const uuidQuery = Object.entries(route.querystring?.properties ?? {}).filter(([k, s]) => s.format === 'uuid' || /Id$/.test(k)).map(([k]) => k);
    const uuidBody = Object.entries(route.body?.properties ?? {}).filter(([, s]) => s.format === 'uuid').map(([k]) => k);
    if (params.length + uuidQuery.length + uuidBody.length === 0) continue;
    for (const id of ids.slice(0, IDS_PER_ROUTE)) {
      const query = Object.fromEntries(uuidQuery.map((k) => [k, id]));
      const validBody = route.body ? (sample(validArbitrary(route.body), 1, 11)[0] as Record<string, unknown>) : undefined;
      const body = validBody ? { ...validBody, ...Object.fromEntries(uuidBody.map((k) => [k, id])) } : undefined;
      const url = `${fillPath(route.url, Object.fromEntries(params.map((p) => [p, id])))}${queryString(query)}`;
      const res = await within(app.inject({ method: route.method as 'GET', url, headers: { authorization: attacker.authorization }, ...(body ? { payload: body } : {}) }), INJECT_TIMEOUT_MS);
      attempts++;
      if (!res) {
        report(t, route, false, 'no answer in time');
        continue;
      }
      const leaked = res.statusCode < 400 && ids.some((victimId) => res.body.includes(victimId));
      const problem = judge(res.statusCode, res.body);
      report(t, route, !leaked && !problem && res.statusCode >= 400 || (res.statusCode < 400 && !leaked && route.method === 'GET'), `another user's id → ${res.statusCode}${problem ? ` (${problem})` : ''}${leaked ? ' LEAKED' : ''}`);
    }
  }
  const after = await victimSnapshot();
  for (const [table, rows] of before) {
    t.equal(after.get(table), rows, `${table}: the victim's rows are byte-for-byte unchanged`);
  }
  t.comment(`cross-tenant attempts: ${attempts} over ${testable.length} routes, ${ids.length} victim ids`);
});

t.test(`schema-driven fuzzing: ${CASES_PER_ROUTE} hostile cases per route, no 5xx, errors in the house shape`, async (t) => {
  let cases = 0;
  let failures = 0;
  for (const route of testable) {
    const paramNames = pathParams(route.url);
    const paramsSchema: JsonSchema = route.params ?? { type: 'object', properties: Object.fromEntries(paramNames.map((p) => [p, { type: 'string', format: 'uuid' }])), required: paramNames };
    const seed = [...route.url].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, route.method.length);
    const inputs = sample(
      fc.record({
        params: paramNames.length > 0 ? hostileArbitrary(paramsSchema) : fc.constant({}),
        query: route.querystring ? hostileArbitrary(route.querystring) : fc.constant({}),
        body: route.method === 'GET' || route.method === 'DELETE' ? fc.constant(undefined) : hostileArbitrary(route.body ?? { type: 'object' }),
        contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded'),
      }),
      CASES_PER_ROUTE,
      seed,
    );
    let routeProblem: string | undefined;
    // A session of the attacker's own per route: a fuzzed logout ends only that one, never the rest of the run.
    const caller = signToken(app, attacker.id);
    for (const input of inputs) {
      const params = input.params && typeof input.params === 'object' && !Array.isArray(input.params) ? (input.params as Record<string, unknown>) : {};
      const url = `${fillPath(route.url, params)}${queryString(input.query)}`;
      const payload = input.body === undefined ? undefined : input.contentType === 'application/json' ? JSON.stringify(input.body) : asText(input.body);
      const res = await within(
        app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: caller.authorization, ...(payload !== undefined ? { 'content-type': input.contentType } : {}) },
          ...(payload !== undefined ? { payload } : {}),
        }),
        INJECT_TIMEOUT_MS,
      );
      cases++;
      const problem = res ? judge(res.statusCode, res.body) : 'no answer in time';
      if (problem) {
        failures++;
        routeProblem ??= `${problem} (url ${url.slice(0, 120)})`;
      }
    }
    report(t, route, routeProblem === undefined, routeProblem ?? `${inputs.length} cases held`);
  }
  t.comment(`fuzzing: ${cases} cases over ${testable.length} routes, ${failures} failing`);
});

/** Routes that take a file as it is: their context parses an upload type and no JSON body schema stands in the way. */
const uploads = testable.filter((r) => r.rawMediaTypes.length > 0 && r.body === undefined && ['POST', 'PUT', 'PATCH'].includes(r.method));

t.test(`raw upload fuzzing: ${RAW_CASES_PER_ROUTE} hostile CSV and vCard files per upload route, no 5xx`, async (t) => {
  const urls = uploads.map((r) => `${r.method} ${r.url}`);
  t.ok(urls.includes('POST /api/contacts/import') && urls.includes('POST /api/contacts/import/preview'), `upload routes found: ${urls.join(', ')}`);
  // A user of its own: the schema fuzz may have logged the attacker out (a 401 would read no upload).
  const uploader = await register('Subidas');
  const kinds = Object.values(RAW_BODY_KINDS);
  let bodies = 0;
  let failing = 0;
  for (const route of uploads) {
    const seed = [...route.url].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 17);
    // A query the route accepts most of the time, so the body is what gets read.
    const query = route.querystring ? fc.oneof({ weight: 5, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: validArbitrary(route.querystring) }) : fc.constant({});
    const inputs = kinds.flatMap((kind, k) =>
      sample(fc.record({ body: kind, query, contentType: fc.constantFrom(...route.rawMediaTypes) }), Math.ceil(RAW_CASES_PER_ROUTE / kinds.length), seed + k),
    );
    let routeProblem: string | undefined;
    for (const input of inputs) {
      const res = await within(
        app.inject({
          method: route.method as 'POST',
          url: `${route.url}${queryString(input.query)}`,
          headers: { authorization: uploader.authorization, 'content-type': input.contentType },
          payload: input.body,
        }),
        UPLOAD_TIMEOUT_MS,
      );
      bodies++;
      // No answer in time counts with the 5xx: the client is left without one either way.
      const problem = res ? judge(res.statusCode, res.body) : 'no answer in time';
      if (!res || res.statusCode >= 500) failing++;
      if (problem) routeProblem ??= `${problem} (${input.contentType}, ${input.body.length} bytes: ${JSON.stringify(input.body.subarray(0, 60).toString('latin1'))})`;
    }
    report(t, route, routeProblem === undefined, routeProblem ?? `${inputs.length} raw bodies held`);
  }
  t.comment(`trust raw-imports: ${bodies} fuzzed raw import bodies over ${uploads.length} routes, ${failing} answers >= 500`);
});
