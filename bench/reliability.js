// `npm run reliability` (after the build): the standing suite in full, then the figures of issues 16,
// 17, 21 and 22 as one table. Runs
//   1. the suite's tap files with RELIABILITY_FULL=1 (400 fuzz cases per route), their TAP kept in
//      bench/out/reliability.tap, the cross-tenant attempts, fuzz cases and the `# replicas faults: …`
//      figures of two replicas of everything (issue 22) read from it;
//   2. issue 21's trust-boundary tests, embedded and on PostgreSQL + JetStream, their figures read from
//      the `# trust …` comments they print (bench/lib/trust-figures.js);
//   3. attacks on the embedded app as `npm start` runs it (default limits, TRUST_PROXY unset):
//      rate limits under a new X-Forwarded-For on every request (issue 17 item 1); sessions after a
//      password change, a logout, and a validly signed token of a user that does not exist (item 3);
//   4. bench/reliability-hashing.js (item 6) and bench/contacts-import-load.js at a modest size (item 5,
//      RELIABILITY_IMPORT_ROWS, default 50,000; 0 skips it), each printing its own table.
// Exits non-zero when a suite file fails or a figure is not what the issues ask.
import { spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode, stopAll, waitReady } from '../scripts/lib/processes.js';
import { freePort, LOG_FILE } from './lib/app.js';
import { printTable } from './lib/table.js';
import { reportTrust } from './lib/trust-figures.js';

const root = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));

/** The standing suite's files (issue 16): what `npm run reliability` runs in full. */
const SUITE = [
  'gateway/test/reliability.test.ts',
  'gateway/test/sessions.test.ts',
  'gateway/test/shutdown.test.ts',
  'gateway/test/upstreams.test.ts',
  'gateway/test/request-id.test.ts',
  'gateway/test/deploy-manifests.test.ts',
  'gateway/test/faults-nats.test.ts',
  'gateway/test/faults-database.test.ts',
  'gateway/test/faults-import.test.ts',
  'gateway/test/faults-replicas.test.ts',
  'gateway/test/faults-two-of-everything.test.ts',
  'packages/kit/test/jetstream-recovery.test.ts',
  'packages/kit/test/boot-guards.test.ts',
  'packages/kit/test/statement-timeout.test.ts',
];
/**
 * Issue 21's trust-boundary tests: each prints its figures as `# trust <key>: …` TAP comments. They run
 * once embedded (PGlite, in-process events) and once on PostgreSQL + JetStream.
 */
const TRUST_SUITE = [
  'services/ai/test/customer-reach.test.ts',
  'services/email/test/host-guard.routes.test.ts',
  'services/email/test/bounded-mail.test.ts',
  'gateway/test/oauth-trust.test.ts',
  'gateway/test/reliability.test.ts',
];
/** Where the second pass finds PostgreSQL and NATS (the machine's local ones unless set). */
const DISTRIBUTED_ENV = {
  DATABASE_URL: process.env.RELIABILITY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  NATS_URL: process.env.RELIABILITY_NATS_URL ?? 'nats://127.0.0.1:4222',
};
const IMPORT_ROWS = Number(process.env.RELIABILITY_IMPORT_ROWS ?? 50_000);
/** RELIABILITY_SUITE=0 prints the figures only (the suite's tap files are run by `npm test` too). */
const RUN_SUITE = process.env.RELIABILITY_SUITE !== '0';

/** `command args` with `env`, its output to our stdout (or to `file`); resolves with its exit code. */
function run(command, args, { env = process.env, file } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', file ? 'pipe' : 'inherit', 'inherit'] });
    if (file) child.stdout.pipe(createWriteStream(file));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const rows = [];
let failed = false;
/** One line of the final table; `ok` false marks the run as failed. */
function figure(issue, what, attempts, result, ok) {
  rows.push({ figure: what, issue, attempts, result, holds: ok ? 'yes' : 'NO' });
  if (!ok) failed = true;
}

async function suite() {
  const tapFile = root('bench/out/reliability.tap');
  console.log(`standing suite (${SUITE.length} files, full): TAP in ${path.relative(process.cwd(), tapFile)}`);
  const code = await run('npx', ['tap', '--timeout=3600', '-R', 'tap', ...SUITE], { env: { ...process.env, RELIABILITY_FULL: '1' }, file: tapFile });
  const { readFileSync } = await import('node:fs');
  const tap = readFileSync(tapFile, 'utf8');
  for (const line of tap.split('\n').filter((l) => /^(not )?ok \d+ - /.test(l))) console.log(`  ${line}`);
  const attempts = /cross-tenant attempts: (\d+) over (\d+) routes, (\d+) victim ids/.exec(tap);
  const fuzz = /fuzzing: (\d+) cases over (\d+) routes, (\d+) failing/.exec(tap);
  const total = /# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/.exec(tap);
  figure('16', 'cross-tenant matrix (route x id slot, another user ids)', attempts?.[1] ?? '?', attempts ? `${attempts[2]} routes, ${attempts[3]} victim ids, see TAP for 0 leaks` : 'not found', code === 0 && attempts !== null);
  figure('16', 'schema-driven fuzzing, 400 hostile cases per route', fuzz?.[1] ?? '?', fuzz ? `${fuzz[2]} routes, ${fuzz[3]} answers >= 500 or off-shape` : 'not found', code === 0 && fuzz?.[3] === '0');
  figure('16', 'standing suite assertions', total?.[1] ?? '?', `${total?.[2] ?? '?'} pass, ${total?.[3] ?? 0} fail`, code === 0);
  // Issue 22: two replicas of every service under load, faults in turn (runs with DATABASE_URL and NATS_URL).
  const replicas = /# replicas faults: (\d+) replicas of (\d+) services, (\d+) kills, (\d+) writes, (\d+) lost, (\d+) duplicated, \/ready false (\d+) times/.exec(tap);
  // The mix line: the automatic AI answers and the mails among those writes (counted in the lost and duplicated).
  const ai = /# replicas faults mix: .*?(\d+) customer bursts answered by AI (\d+) times/.exec(tap);
  const mails = /# replicas faults mix: .*?(\d+) mails sent \((\d+) answered 409 in doubt.*?(\d+) mails received/.exec(tap);
  const mix = `${ai ? `, ${ai[1]} AI bursts answered ${ai[2]} times` : ''}${mails ? `, ${mails[1]} mails sent (${mails[2]} in doubt), ${mails[3]} received` : ''}`;
  figure(
    '22',
    'two replicas of everything: one of each SIGKILLed, NATS down 10 s, connections cut',
    replicas?.[4] ?? '?',
    replicas
      ? `${replicas[1]} x ${replicas[2]} services, ${replicas[3]} kills, ${replicas[5]} lost, ${replicas[6]} duplicated, /ready false ${replicas[7]} times${mix}`
      : 'not found (needs DATABASE_URL and NATS_URL)',
    code === 0 && replicas?.[5] === '0' && replicas[6] === '0' && replicas[7] === '0',
  );
}

/** The embedded app as `npm start` runs it, with the JWT secret known here (to forge an unknown user's token). */
/** Issue 21: the trust tests in both topologies, their `# trust` figures read from the TAP. */
async function trust() {
  const topologies = [
    { name: 'embedded', env: { DATABASE_URL: '', NATS_URL: '' } },
    { name: 'PostgreSQL + JetStream', env: DISTRIBUTED_ENV },
  ];
  for (const topology of topologies) {
    const tapFile = root(`bench/out/trust-${topology.name === 'embedded' ? 'embedded' : 'distributed'}.tap`);
    console.log(`trust-boundary tests, ${topology.name} (${TRUST_SUITE.length} files): TAP in ${path.relative(process.cwd(), tapFile)}`);
    const env = { ...process.env, RELIABILITY_FULL: '1', ...topology.env };
    for (const [key, value] of Object.entries(topology.env)) if (value === '') delete env[key];
    const code = await run('npx', ['tap', '--timeout=3600', '-R', 'tap', ...TRUST_SUITE], { env, file: tapFile });
    const { readFileSync } = await import('node:fs');
    const tap = readFileSync(tapFile, 'utf8');
    reportTrust(tap, topology.name, figure);
    const total = /# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/.exec(tap);
    figure('21', `trust-boundary tests (${topology.name})`, total?.[1] ?? '?', `${total?.[2] ?? '?'} pass, ${total?.[3] ?? 0} fail`, code === 0);
  }
}

async function startEmbedded(label, extra = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'asistente-reliability-'));
  const port = await freePort();
  const jwtSecret = randomBytes(32).toString('hex');
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NATS_URL: '', PORT: String(port), LOG_LEVEL: 'warn', SCRYPT_COST: '10', JWT_SECRET: jwtSecret };
  for (const variable of ['TRUST_PROXY', 'RATE_LIMIT_LOGIN_MAX', 'RATE_LIMIT_REGISTER_MAX', 'RATE_LIMIT_WINDOW_MS', 'HASH_CONCURRENCY', 'HASH_QUEUE_MAX']) delete env[variable];
  Object.assign(env, extra);
  const child = startNode(label, root('gateway/dist/main.js'), env, { output: createWriteStream(LOG_FILE, { flags: 'a' }) });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/ready`, child, 120_000);
  return {
    base,
    jwtSecret,
    async stop() {
      await stopAll([child]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const json = (method, body, headers = {}) => ({ method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const spoofed = () => ({ 'x-forwarded-for': `203.0.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}` });
const tally = (statuses) => Object.entries(statuses.reduce((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {})).map(([s, n]) => `${n} x ${s}`).join(', ');

async function signup(base, email, password, headers = {}) {
  return fetch(`${base}/api/auth/register`, json('POST', { firstName: 'Fiabilidad', lastName: 'Pruebas', email, password }, headers));
}

async function rateLimits() {
  const app = await startEmbedded('limits');
  try {
    const email = `victima-${randomBytes(4).toString('hex')}@ejemplo.es`;
    const password = 'Clave-de-la-victima-7';
    await signup(app.base, email, password);
    const wrong = [];
    for (let i = 0; i < 200; i++) wrong.push((await fetch(`${app.base}/api/auth/login`, json('POST', { email, password: `incorrecta-${i}` }, spoofed()))).status);
    const accepted = wrong.filter((s) => s === 401).length;
    figure('17.1', 'wrong passwords on one account, new X-Forwarded-For each', wrong.length, tally(wrong), accepted <= 10 && wrong.filter((s) => s === 429).length >= 190);
    const right = (await fetch(`${app.base}/api/auth/login`, json('POST', { email, password }, spoofed()))).status;
    figure('17.1', 'the right password while the account is locked out', 1, String(right), right === 429);
  } finally {
    await app.stop();
  }
  // A fresh process: the sign-ups above must not count against this address.
  const fresh = await startEmbedded('signups');
  try {
    const statuses = [];
    for (let i = 0; i < 116; i++) statuses.push((await signup(fresh.base, `alta-${i}-${randomBytes(3).toString('hex')}@ejemplo.es`, 'Clave-de-alta-larga-9', spoofed())).status);
    const created = statuses.filter((s) => s === 201).length;
    figure('17.1', 'sign-ups from one address, new X-Forwarded-For each', statuses.length, tally(statuses), created <= 30 && created + statuses.filter((s) => s === 429).length === statuses.length);
  } finally {
    await fresh.stop();
  }
}

/** One GET per service, as a user's session would touch them. */
const SERVICE_GETS = ['/api/auth/me', '/api/contacts', '/api/ai/assistant', '/api/analytics/recent', '/api/google/google-calendar/status', '/api/whatsapp/status', '/api/emails/templates', '/api/teams/status'];

/** HS256 JWT with the house claims, for a user id this app never issued. */
function forgeToken(secret, sub) {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub, jti: randomUUID(), iat: now, exp: now + 3600, ims: Date.now(), iss: 'mi-asistente', aud: 'mi-asistente-api' })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** An open /api/analytics/stream; `closedAfter()` resolves with the ms from `mark()` to the server ending it. */
async function openStream(base, token) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/analytics/stream`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  let markedAt = 0;
  const ended = (async () => {
    const reader = res.body.getReader();
    for (;;) if ((await reader.read()).done) return performance.now();
  })();
  const limit = new Promise((resolve) => setTimeout(() => resolve(undefined), 10_000).unref());
  return {
    status: res.status,
    mark: () => (markedAt = performance.now()),
    async closedAfter() {
      const at = await Promise.race([ended, limit]);
      controller.abort();
      return at === undefined ? undefined : Math.round(at - markedAt);
    },
  };
}

async function sessions() {
  const app = await startEmbedded('sessions');
  try {
    const email = `sesiones-${randomBytes(4).toString('hex')}@ejemplo.es`;
    const first = 'Clave-primera-larga-3';
    const { token: changer } = await (await signup(app.base, email, first)).json();
    const login = async (password) => (await (await fetch(`${app.base}/api/auth/login`, json('POST', { email, password }))).json()).token;
    const other = await login(first);
    const gets = async (token) => Promise.all(SERVICE_GETS.map(async (url) => (await fetch(`${app.base}${url}`, { headers: { authorization: `Bearer ${token}` } })).status));
    const before = await gets(other);
    const stream = await openStream(app.base, other);
    stream.mark();
    const changed = await fetch(`${app.base}/api/auth/password`, json('PUT', { currentPassword: first, newPassword: 'Clave-segunda-larga-4' }, { authorization: `Bearer ${changer}` }));
    const after = await gets(other);
    const closedByChange = await stream.closedAfter();
    figure('17.3', 'another session after a password change, one GET per service', after.length, `before ${tally(before)}; after ${tally(after)} (change ${changed.status})`, after.every((s) => s === 401) && before.every((s) => s < 400));
    figure('17.3', 'its open live stream after the password change', 1, closedByChange === undefined ? 'still open after 10 s' : `closed in ${closedByChange} ms`, closedByChange !== undefined);
    const mine = await openStream(app.base, changer);
    mine.mark();
    const out = await fetch(`${app.base}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${changer}` } });
    const closedByLogout = await mine.closedAfter();
    const afterLogout = (await fetch(`${app.base}/api/contacts`, { headers: { authorization: `Bearer ${changer}` } })).status;
    figure('17.3', 'an open live stream after logout', 1, closedByLogout === undefined ? 'still open after 10 s' : `closed in ${closedByLogout} ms (logout ${out.status}, token then ${afterLogout})`, closedByLogout !== undefined && afterLogout === 401);
    const unknown = await gets(forgeToken(app.jwtSecret, randomUUID()));
    figure('17.3', 'a validly signed token of a user that does not exist', unknown.length, tally(unknown), unknown.every((s) => s === 401));
  } finally {
    await app.stop();
  }
}

/**
 * The hashing queue's bound (item 6) at OWASP's strength and the default HASH_CONCURRENCY=2,
 * HASH_QUEUE_MAX=32: 40 concurrent wrong-password logins over 4 accounts (under the per-account and
 * per-address limits), so only the queue can refuse. Memory is bench/reliability-hashing.js's.
 */
async function hashingQueue() {
  const app = await startEmbedded('hashing', { SCRYPT_COST: '17' });
  try {
    const emails = Array.from({ length: 4 }, (_, i) => `cola-${i}-${randomBytes(3).toString('hex')}@ejemplo.es`);
    for (const email of emails) await signup(app.base, email, 'Clave-de-la-cola-5');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => fetch(`${app.base}/api/auth/login`, json('POST', { email: emails[i % 4], password: `incorrecta-${i}` }))),
    );
    const statuses = answers.map((r) => r.status);
    const refused = answers.filter((r) => r.status === 503);
    const retry = refused.every((r) => r.headers.get('retry-after'));
    figure('17.6', 'concurrent logins beyond 2 hashing + 32 queued (scrypt N=2^17)', statuses.length, `${tally(statuses)}${refused.length ? `, Retry-After ${retry ? 'on each 503' : 'MISSING'}` : ''}`, refused.length === 6 && retry);
  } finally {
    await app.stop();
  }
}

if (RUN_SUITE) await suite();
await trust();
await rateLimits();
await sessions();
await hashingQueue();

console.log('\nReliability figures: issue 21 from the trust tests in both topologies; issues 16 and 17 on the embedded app as `npm start` runs it\n');
printTable(rows);

console.log('\nissue 17 item 6: password hashing memory and queue');
if ((await run(process.execPath, [root('bench/reliability-hashing.js')])) !== 0) failed = true;
if (IMPORT_ROWS > 0) {
  console.log(`\nissue 17 item 5: another user's reads during a ${IMPORT_ROWS.toLocaleString('en')}-row import (full size: node bench/contacts-import-load.js)`);
  if ((await run(process.execPath, [root('bench/contacts-import-load.js'), '--rows', String(IMPORT_ROWS)])) !== 0) failed = true;
}
if (failed) {
  console.error('\nreliability: a suite file failed or a figure does not hold (see above)');
  process.exitCode = 1;
}
