// The CLI as a user runs it: the built `asistente` binary against the built gateway in its embedded topology
// (a fresh data directory, PGlite), each command a real process with its own exit code, stdout and stderr.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { SecretBox, createLogger, generateKey, openDatabase, parseKeyring } from '@asistente/kit';
import { OPENAI_KEY_COLUMN } from '@asistente/ai';
import { createTestDatabase } from '@asistente/kit/testing';
import { migratedDataDir, TEST_APP_NODE_ARGS } from '@asistente/kit/testing/migrated-data-dir';

// A 100k-row import through real processes: well under a minute on an idle machine, several on a loaded one.
t.setTimeout(600_000);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GATEWAY = join(ROOT, 'gateway/dist/main.js');
const CLI = join(ROOT, 'cli/bin/asistente.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A free loopback port: bind to 0, read it, let it go. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A clean environment rather than the test runner's: no DATABASE_URL or service URLs leaking in (they would
 * switch topology), no NODE_OPTIONS (the built JavaScript must run on its own).
 */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, LANG: 'C.UTF-8', ...extra };
}

function run(args: string[], env: Record<string, string>, input = ''): Promise<Run> {
  const child = spawn(process.execPath, [...TEST_APP_NODE_ARGS, CLI, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

if (!existsSync(GATEWAY) || !existsSync(join(ROOT, 'cli/dist/main.js'))) {
  t.fail('the build is missing: run `npm run build` first (npm test does it)');
} else if (process.env.DATABASE_URL) {
  // The processes run in a clean environment, so they meet PGlite whatever the pass: once is enough.
  t.test('the CLI against the embedded gateway', { skip: 'runs in the embedded pass: its processes use PGlite in both passes' }, () => {});
} else {
  await endToEnd();
}

async function endToEnd(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'asistente-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // The app's database already migrated (the tests' template): its first start is otherwise initdb and every migration.
  const dataDir = await migratedDataDir('asistente-cli-data-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...TEST_APP_NODE_ARGS, GATEWAY], {
    env: cleanEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SCRYPT_COST: '12' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serverErrors = '';
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => (serverErrors += chunk));
  t.teardown(async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });
  await waitUntilReady(apiUrl, () => server.exitCode, () => serverErrors);

  const xdg = join(dir, 'config');
  const env = { ASISTENTE_API_URL: apiUrl, XDG_CONFIG_HOME: xdg };
  const cli = (args: string[], input?: string, extra: Record<string, string> = {}) => run(args, { ...env, ...extra }, input);
  const account = { email: `ana.${randomUUID().slice(0, 8)}@ejemplo.es`, password: 'secreto123' };
  const registered = await fetch(`${apiUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Ana', lastName: 'Pérez', ...account }),
  });
  t.equal(registered.status, 201, 'a user to sign in as');

  await t.test('usage errors exit 2, failures exit 1 with the server message', async (t) => {
    const unknown = await cli(['nada']);
    t.equal(unknown.code, 2, 'unknown command');
    t.match(unknown.stderr, /unknown command 'nada'/);
    t.equal((await cli(['contacts', 'list', '--page', '0'])).code, 2, 'bad option value');
    t.equal((await cli(['contacts'])).code, 2, 'a group without its subcommand');
    t.equal((await cli(['--help'])).code, 0, 'help is not an error');

    const wrong = await cli(['login', '--email', account.email, '--password', 'incorrecta']);
    t.equal(wrong.code, 1, 'wrong password');
    t.match(wrong.stderr, 'Error: Correo o contraseña incorrectos');
    const wrongJson = await cli(['login', '--json'], '', { ASISTENTE_EMAIL: account.email, ASISTENTE_PASSWORD: 'incorrecta' });
    t.equal(wrongJson.code, 1);
    t.match(JSON.parse(wrongJson.stderr), { error: { statusCode: 401, message: 'Correo o contraseña incorrectos' } });

    const anonymous = await cli(['whoami']);
    t.equal(anonymous.code, 1);
    t.match(anonymous.stderr, 'No has iniciado sesión');
    t.equal((await cli(['login'])).code, 2, 'no credentials and no terminal to ask on');
  });

  await t.test('login stores the token 0600; whoami; the token can come from ASISTENTE_TOKEN', async (t) => {
    const login = await cli(['login'], '', { ASISTENTE_EMAIL: account.email, ASISTENTE_PASSWORD: account.password });
    t.equal(login.code, 0, login.stderr);
    t.match(login.stdout, `Sesión iniciada como Ana Pérez <${account.email}>`);
    const file = join(xdg, 'asistente', 'config.json');
    t.equal((await stat(file)).mode & 0o777, 0o600, 'only the owner reads the token');
    t.notMatch(login.stdout + login.stderr, /eyJ/, 'the token is never printed');

    const whoami = await cli(['whoami', '--json']);
    t.match(JSON.parse(whoami.stdout), { user: { email: account.email, firstName: 'Ana' } });

    const { token } = (await (
      await fetch(`${apiUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) })
    ).json()) as { token: string };
    const otherHome = join(dir, 'other-config');
    const byToken = await run(['login', '--json'], { ASISTENTE_API_URL: apiUrl, XDG_CONFIG_HOME: otherHome, ASISTENTE_TOKEN: token });
    t.equal(byToken.code, 0, byToken.stderr);
    t.match(JSON.parse(byToken.stdout), { user: { email: account.email } });
    t.equal((await run(['whoami'], { ASISTENTE_API_URL: apiUrl, XDG_CONFIG_HOME: otherHome })).code, 0, 'stored for later commands');
  });

  await t.test('import 100k rows with one bad line, list, export, and compare', async (t) => {
    // The dry run on a small file: it does the same work as an import, and the big one is slow enough once.
    const sample = generateCsv(200, 100);
    const sampleFile = join(dir, 'muestra.csv');
    await writeFile(sampleFile, sample.csv);
    const dryRun = await cli(['contacts', 'import', sampleFile, '--dry-run', '--json']);
    t.equal(dryRun.code, 0, dryRun.stderr);
    t.same(JSON.parse(dryRun.stdout), { created: 199, updated: 0, skipped: 0, errors: [{ line: 101, message: 'Falta el apellido' }] });
    t.match(JSON.parse((await cli(['contacts', 'list', '--json'])).stdout), { total: 0 }, 'a dry run stores nothing');

    const { csv, rows, badLine } = generateCsv(100_000, 50_000);
    const file = join(dir, 'contactos.csv');
    await writeFile(file, csv);

    const imported = await cli(['contacts', 'import', file]);
    t.equal(imported.code, 0, imported.stderr);
    t.match(imported.stdout, 'Creados: 99.999');
    t.match(imported.stdout, `Línea ${badLine}: Falta el apellido`, 'the report names the bad line');

    const list = JSON.parse((await cli(['contacts', 'list', '--json', '--limit', '5'])).stdout) as { total: number; contacts: unknown[] };
    t.equal(list.total, 99_999, 'every good row is there');
    t.equal(list.contacts.length, 5);
    const page = await cli(['contacts', 'list', '--search', 'Nombre77777', '--limit', '1']);
    t.match(page.stdout, /Nombre77777 Apellido77777/);

    const exported = join(dir, 'exportado.csv');
    const exportRun = await cli(['contacts', 'export', exported, '--json']);
    t.equal(exportRun.code, 0, exportRun.stderr);
    t.match(JSON.parse(exportRun.stdout), { file: exported, bytes: Number });
    const back = dataLines(await readFile(exported, 'utf8'));
    t.equal(back.length, rows.length, 'as many rows as were good');
    t.ok(back.some((line) => line.includes(',+34 600 ')), 'a phone number is data: exported as written, no apostrophe');
    // Formulas would carry an apostrophe, which the import strips again, so what comes back is what went in.
    t.ok(sameRows(back.map((line) => line.replace(/(^|,)'([=+\-@])/g, '$1$2')), rows), 'the same rows, in any order');

    const toStdout = await cli(['contacts', 'export']);
    t.equal(toStdout.code, 0);
    t.equal(toStdout.stdout, await readFile(exported, 'utf8'), 'without a file the CSV goes to stdout');
  });

  await t.test('openai set-key, status and delete; the key never printed', async (t) => {
    const key = 'sk-proj-e2eTestKey0123456789abcdefWXYZ';
    const set = await cli(['openai', 'set-key'], `${key}\n`);
    t.equal(set.code, 0, set.stderr);
    t.match(set.stdout, 'API key guardada (••••WXYZ)');
    t.notMatch(set.stdout + set.stderr, key);
    t.same(JSON.parse((await cli(['openai', 'status', '--json'])).stdout), { exists: true, last4: 'WXYZ', valid: true });

    const fromEnv = await cli(['openai', 'set-key', '--json'], '', { OPENAI_API_KEY: 'sk-proj-fromEnvironment0123456789ABCD' });
    t.same(JSON.parse(fromEnv.stdout), { success: true, last4: 'ABCD' }, 'OPENAI_API_KEY');

    const bad = await cli(['openai', 'set-key', 'pk-1234567890abcdefghij']);
    t.equal(bad.code, 1);
    t.match(bad.stderr, 'La API key debe empezar por sk-');
    const empty = await cli(['openai', 'set-key'], '  \n');
    t.equal(empty.code, 2);
    t.match(empty.stderr, 'Ingresa tu API key');

    const deleted = await cli(['openai', 'delete']);
    t.match(deleted.stdout, 'API key eliminada');
    t.match((await cli(['openai', 'status'])).stdout, 'Sin API key');
  });

  await t.test('logout revokes the token and forgets it', async (t) => {
    const { token } = (await (
      await fetch(`${apiUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) })
    ).json()) as { token: string };
    const logout = await cli(['logout', '--json'], '', { ASISTENTE_TOKEN: token });
    t.same(JSON.parse(logout.stdout), { success: true });
    const me = await fetch(`${apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    t.equal(me.status, 401, 'the server no longer accepts it');
    t.equal((await cli(['logout'])).code, 0);
    t.equal((await cli(['whoami'])).code, 1, 'no session left');
    t.notOk(existsSync(join(xdg, 'asistente', 'config.json')), 'the file went with the last session');
  });
}

async function waitUntilReady(apiUrl: string, exitCode: () => number | null, errors: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (exitCode() !== null) throw new Error(`the gateway exited: ${errors()}`);
    const ready = await fetch(`${apiUrl}/ready`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the gateway did not become ready: ${errors()}`);
}

/** `count` contacts (some without email, phone or tags) and one with no last name at `badIndex`. */
function generateCsv(count: number, badIndex: number): { csv: string; rows: string[]; badLine: number } {
  const lines = ['firstName,lastName,email,phone,company,tags'];
  const rows: string[] = [];
  for (let i = 1; i <= count; i++) {
    const row = [
      `Nombre${i}`,
      i === badIndex ? '' : `Apellido${i}`,
      i % 10 === 0 ? '' : `usuario${i}@ejemplo.es`,
      i % 3 === 0 ? '' : `+34 600 ${String(i).padStart(6, '0')}`,
      `Empresa ${i % 250}`,
      i % 4 === 0 ? '' : `etiqueta${i % 7}`,
    ].join(',');
    lines.push(row);
    if (i !== badIndex) rows.push(row);
  }
  // Line 1 is the header, so contact i sits on line i + 1.
  return { csv: `${lines.join('\n')}\n`, rows, badLine: badIndex + 1 };
}

function dataLines(csv: string): string[] {
  return csv.replace(/^\uFEFF/, '').split(/\r?\n/).slice(1).filter((line) => line !== '');
}

function sameRows(a: string[], b: string[]): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((line, i) => line === right[i]);
}

t.test(
  'admin rotate-keys against a real database',
  { skip: process.env.DATABASE_URL ? false : 'DATABASE_URL is not set: rotate-keys talks to Postgres directly' },
  async (t) => {
    const database = await createTestDatabase();
    t.teardown(() => database.drop());
    const databaseUrl = database.url ?? '';
    const db = await openDatabase({ databaseUrl, dataDir: 'memory://', poolMax: 1, migrateOnStart: true, log: createLogger('silent', 'test') });
    t.teardown(() => db.close());

    const oldRing = `old:${generateKey()}`;
    const newRing = `new:${generateKey()}`;
    const oldBox = new SecretBox(parseKeyring(oldRing));
    for (let i = 0; i < 5; i++) {
      const userId = randomUUID();
      const context = { userId, table: OPENAI_KEY_COLUMN.table, column: OPENAI_KEY_COLUMN.column };
      await db.sql`
        insert into ai.provider_keys (user_id, provider, api_key_enc, last4)
        values (${userId}, 'openai', ${oldBox.seal(`sk-rotacion-${randomUUID()}`, context)}, 'abcd')`;
    }
    const admin = (args: string[], keys?: string) =>
      run(['admin', 'rotate-keys', ...args], { DATABASE_URL: databaseUrl, ...(keys === undefined ? {} : { SECRETS_KEYS: keys }) });

    const dryRun = await admin(['--dry-run', '--json'], `${newRing},${oldRing}`);
    t.equal(dryRun.code, 0, dryRun.stderr);
    t.match(JSON.parse(dryRun.stdout), { scanned: 5, rotated: 5, dryRun: true });

    const rotated = await admin(['--batch-size', '2'], `${newRing},${oldRing}`);
    t.equal(rotated.code, 0, rotated.stderr);
    t.match(rotated.stdout, 'Rotación terminada con la clave "new"');
    t.match(rotated.stdout, 'Rotados: 5');

    const verified = await admin(['--verify', '--json'], newRing);
    t.equal(verified.code, 0, verified.stderr);
    t.same(JSON.parse(verified.stdout), { scanned: 5, ok: 5, failed: 0 }, 'the new key alone opens everything');

    const stale = await admin(['--verify', '--json'], oldRing);
    t.equal(stale.code, 1, 'verifying with only the old key fails');
    t.match(JSON.parse(stale.stdout), { failed: 5 });

    t.equal((await admin([])).code, 2, 'no SECRETS_KEYS');
    const malformed = await admin([], 'new:no-es-base64');
    t.equal(malformed.code, 2);
    t.match(malformed.stderr, 'SECRETS_KEYS');
    t.equal((await admin(['--dry-run', '--verify'], newRing)).code, 2, '--dry-run and --verify conflict');
  },
);
