import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import t, { type Test } from 'tap';
import { createLogger, createPlatform, DataDirInUseError, generateKey, loadConfig, openDatabase, type Config, type Platform, type Sql } from '@asistente/kit';
import { buildServiceApp, createTestDatabase } from '@asistente/kit/testing';
import { migratedDataDir } from '@asistente/kit/testing/migrated-data-dir';
import authService from '../../services/auth/src/app.js';
import { countRows } from '../src/lib/backup/catalog.js';
import { runCli } from './support/cli.js';

const log = createLogger('silent', 'backup-test');
const POSTGRES = process.env.DATABASE_URL;

const cli = (args: string[], env: Record<string, string>) => runCli(args, { env });

function configFor(env: Record<string, string | undefined>): Config {
  return loadConfig({}, { JWT_SECRET: 'x'.repeat(48), LOG_LEVEL: 'silent', ...env });
}

/** The services' settings: cheap password hashing, nothing read from this machine's environment. */
const settings = { SCRYPT_COST: 10 };

/** An owner with an account, contacts and a sealed OpenAI key: rows in auth, contacts and ai, a secret among them. */
async function seed(t: Test, platform: Platform): Promise<string> {
  const app = await buildServiceApp(t, authService, platform);
  const registered = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { firstName: 'Rosa', lastName: 'Vidal', email: `rosa-${randomUUID()}@horno.es`, password: 'secreto1' },
  });
  t.equal(registered.statusCode, 201, registered.body);
  const userId = (registered.json() as { user: { id: string } }).user.id;
  const sealed = platform.secrets.seal('sk-prueba-1234', { userId, table: 'ai.provider_keys', column: 'api_key_enc' });
  await platform.db.sql`insert into ai.provider_keys (user_id, provider, api_key_enc, last4) values (${userId}, 'openai', ${sealed}, '1234')`;
  for (let i = 0; i < 200; i++) await addContact(platform.db.sql, userId, i);
  await addContact(platform.db.sql, userId, 200, TRICKY);
  return userId;
}

/** Text that a careless dump would bend: backslashes, quotes, control characters, a tab, accents, an emoji. */
const TRICKY = 'C:\\ruta\\nueva "comillas" \\n no es salto\nsí es salto\ttab \u0001 ñ €  🥐 \\\\';

/** One contact and its event in one transaction, as the contacts service writes them (a trigger keeps owner_counts). */
async function addContact(sql: Sql, userId: string, n: number, notes: string | null = null): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`insert into contacts.contacts (user_id, first_name, last_name, email, tags, notes)
             values (${userId}, ${`Cliente ${n}`}, 'Pérez', ${`c${n}@x.es`}, ${['vip']}, ${notes})`;
    await tx`insert into contacts.outbox (id, type, user_id, occurred_at, data) values (${randomUUID()}, 'contact.created', ${userId}, now(), ${tx.json({ n })})`;
  });
}

/** Writes until stopped, like a server in use; resolves with how many contacts it added. */
function keepWriting(sql: Sql, userId: string): { stop(): Promise<number> } {
  let running = true;
  const done = (async () => {
    let n = 1000;
    while (running) await addContact(sql, userId, n++);
    return n - 1000;
  })();
  return {
    stop() {
      running = false;
      return done;
    },
  };
}

/** What a torn copy would break: the trigger-kept counter, the events and the contacts move together. */
async function consistent(t: Test, sql: Sql, userId: string): Promise<void> {
  const [row] = await sql<{ contacts: number; events: number; counted: number }[]>`
    select (select count(*)::int from contacts.contacts where user_id = ${userId}) as contacts,
           (select count(*)::int from contacts.outbox where user_id = ${userId}) as events,
           (select total::int from contacts.owner_counts where user_id = ${userId}) as counted`;
  t.equal(row!.events, row!.contacts, 'one event per contact');
  t.equal(row!.counted, row!.contacts, 'the counter matches the rows');
}

/** The archive's own per-table counts (its ["rows", n] lines, written from the snapshot). */
function archiveCounts(archive: Buffer): Record<string, number> {
  const counts: Record<string, number> = {};
  let table = '';
  for (const line of gunzipSync(archive).toString('utf8').split('\n')) {
    if (line.startsWith('["table"')) table = (JSON.parse(line) as [string, string])[1];
    if (line.startsWith('["rows"')) counts[table] = (JSON.parse(line) as [string, number])[1];
  }
  return counts;
}

function assertNoKeyMaterial(t: Test, archive: Buffer, keys: string[]): void {
  const plain = archive[0] === 0x1f ? gunzipSync(archive) : archive;
  for (const key of keys) {
    const raw = Buffer.from(key, 'base64');
    for (const haystack of [archive, plain]) {
      t.equal(haystack.indexOf(key), -1, 'no key text in the backup');
      t.equal(haystack.indexOf(raw), -1, 'no key bytes in the backup');
    }
  }
}

t.test('embedded: back up while the server writes, erase, restore, same rows per table', { skip: POSTGRES ? 'embedded pass only' : false }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'asistente-backup-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // The server's database already migrated (the tests' template): what is tested is the backup and the restore.
  const dataDir = await migratedDataDir('asistente-backup-data-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const archive = join(dir, 'copia.bak');

  const platform = await createPlatform(configFor({ DATA_DIR: dataDir }), 'gateway', { log, source: settings });
  let closed = false;
  t.teardown(async () => {
    if (!closed) await platform.close();
  });
  const userId = await seed(t, platform);
  await t.rejects(openDatabase({ dataDir, poolMax: 1, migrateOnStart: false, log }), DataDirInUseError, 'a second server on the same files is refused');
  const keyRing = await readFile(join(dataDir, 'secrets.keys'), 'utf8');
  const keyText = keyRing.trim().split(':')[1]!;

  const writer = keepWriting(platform.db.sql, userId);
  const backup = await cli(['admin', 'backup', '--data-dir', dataDir, '--out', archive], {});
  const written = await writer.stop();
  t.equal(backup.code, 0, backup.stderr);
  t.match(backup.stdout, /^Copia guardada en .*copia\.bak \(con el servidor en marcha, /m);
  t.match(backup.stdout, 'La copia NO incluye el anillo de claves');
  t.match(backup.stdout, /cifrados con la\(s\) clave\(s\) k\d{8}/);
  t.ok(written > 0, `the server kept writing (${written} contacts)`);
  const bytes = await readFile(archive);
  assertNoKeyMaterial(t, bytes, [keyText]);
  const snapshot = archiveCounts(bytes);
  const live = await countRows(platform.db.sql);
  t.same(Object.keys(snapshot).sort(), Object.keys(live).sort(), 'every table of every service schema is in the backup');
  t.ok(snapshot['contacts.contacts']! >= 200 && snapshot['contacts.contacts']! <= live['contacts.contacts']!, 'contacts as of one instant');
  t.equal(snapshot['contacts.outbox'], snapshot['contacts.contacts'], 'the snapshot is consistent across tables');

  const whileRunning = await cli(['admin', 'restore', archive, '--data-dir', dataDir, '--force'], {});
  t.equal(whileRunning.code, 1);
  t.match(whileRunning.stderr, /El servidor está en marcha con la carpeta de datos .* páralo antes de restaurar/);
  await platform.close();
  closed = true;

  const refused = await cli(['admin', 'restore', archive, '--data-dir', dataDir], {});
  t.equal(refused.code, 2, 'a directory with a database needs --force');
  t.match(refused.stderr, 'ya tiene una base de datos: usa --force');

  // Into a fresh directory without the key ring: restored, and said so clearly.
  const fresh = join(dir, 'nueva');
  const noKeys = await cli(['admin', 'restore', archive, '--data-dir', fresh], {});
  t.equal(noKeys.code, 0, noKeys.stderr);
  t.match(noKeys.stderr, /Atención: la copia tiene secretos cifrados con la\(s\) clave\(s\) k\d{8} y no hay anillo de claves/);
  const wrongKeys = await cli(['--json', 'admin', 'restore', archive, '--data-dir', fresh, '--force'], { SECRETS_KEYS: `otra:${generateKey()}` });
  t.equal(wrongKeys.code, 0, wrongKeys.stderr);
  t.match(JSON.parse(wrongKeys.stdout), { keys: { status: 'missing', missing: [String] } });

  // Erase: the original database replaced by the copy (with its key ring in place).
  const started = Date.now();
  const restored = await cli(['admin', 'restore', archive, '--data-dir', dataDir, '--force'], {});
  const restoreMs = Date.now() - started;
  t.equal(restored.code, 0, restored.stderr);
  t.match(restored.stdout, /Los 1 secretos de la copia se descifran con el anillo de claves/);
  t.equal(restored.stderr, '');
  t.comment(`embedded: ${snapshot['contacts.contacts']} contacts; restore ${restoreMs} ms (CLI start included)`);

  const db = await openDatabase({ dataDir, poolMax: 1, migrateOnStart: true, log });
  t.teardown(() => db.close());
  t.same(await countRows(db.sql), snapshot, 'same rows in every table as the backup took');
  await consistent(t, db.sql, userId);
  const [key] = await db.sql<{ apiKeyEnc: string }[]>`select api_key_enc from ai.provider_keys where user_id = ${userId}`;
  t.match(key!.apiKeyEnc, /^v1:k\d{8}:/, 'the secret came back sealed');
  const [tricky] = await db.sql<{ notes: string }[]>`select notes from contacts.contacts where first_name = 'Cliente 200'`;
  t.equal(tricky!.notes, TRICKY, 'text comes back byte for byte');
});

t.test('PostgreSQL: pg_dump while the services write, erase, pg_restore, same rows per table', { skip: POSTGRES ? false : 'PostgreSQL pass only' }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'asistente-backup-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const archive = join(dir, 'copia.dump');
  const keyText = generateKey();
  const SECRETS_KEYS = `k1:${keyText}`;
  const source = await createTestDatabase();
  t.teardown(() => source.drop());

  const platform = await createPlatform(configFor({ DATA_DIR: 'memory://', DATABASE_URL: source.url, SECRETS_KEYS }), 'test', { log, source: settings });
  let closed = false;
  t.teardown(async () => {
    if (!closed) await platform.close();
  });
  const userId = await seed(t, platform);
  const before = await countRows(platform.db.sql);

  const writer = keepWriting(platform.db.sql, userId);
  const backup = await cli(['admin', 'backup', '--out', archive], { DATABASE_URL: source.url! });
  const written = await writer.stop();
  t.equal(backup.code, 0, backup.stderr);
  t.match(backup.stdout, /^Copia guardada en .*copia\.dump \(pg_dump, formato custom, /m);
  t.match(backup.stdout, 'La copia NO incluye el anillo de claves (SECRETS_KEYS)');
  t.ok(written > 0, `the services kept writing (${written} contacts)`);
  assertNoKeyMaterial(t, await readFile(archive), [keyText]);

  const whileRunning = await cli(['admin', 'restore', archive, '--force'], { DATABASE_URL: source.url! });
  t.equal(whileRunning.code, 1);
  t.match(whileRunning.stderr, /conexiones de los servicios de Mi Asistente\.IA a esta base de datos: páralos antes de restaurar/);
  const after = await countRows(platform.db.sql);
  await platform.close();
  closed = true;

  const refused = await cli(['admin', 'restore', archive], { DATABASE_URL: source.url! });
  t.equal(refused.code, 2, 'a database with the product in it needs --force');
  t.match(refused.stderr, 'ya tiene datos de Mi Asistente.IA: usa --force');

  // Erase: a new, empty database takes the copy.
  const target = await createTestDatabase();
  t.teardown(() => target.drop());
  const noKeys = await cli(['admin', 'restore', archive], { DATABASE_URL: target.url! });
  t.equal(noKeys.code, 0, noKeys.stderr);
  t.match(noKeys.stderr, /Atención: la copia tiene secretos cifrados con la\(s\) clave\(s\) k1 y no hay anillo de claves \(falta SECRETS_KEYS\)/);
  const started = Date.now();
  const again = await cli(['admin', 'restore', archive, '--force'], { DATABASE_URL: target.url!, SECRETS_KEYS });
  const restoreMs = Date.now() - started;
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /Los 1 secretos de la copia se descifran con el anillo de claves/);

  const db = await openDatabase({ databaseUrl: target.url, dataDir: 'memory://', poolMax: 1, migrateOnStart: true, log });
  t.teardown(() => db.close());
  const restored = await countRows(db.sql);
  t.same(Object.keys(restored).sort(), Object.keys(after).sort(), 'every table of every service schema came back');
  for (const [table, rows] of Object.entries(restored)) {
    if (table === 'contacts.contacts' || table === 'contacts.outbox' || table === 'contacts.owner_counts') continue;
    t.equal(rows, after[table], `${table}: ${rows} rows`);
  }
  const contacts = restored['contacts.contacts']!;
  t.ok(contacts >= before['contacts.contacts']! && contacts <= after['contacts.contacts']!, 'contacts as of one instant while writing');
  await consistent(t, db.sql, userId);
  t.comment(`PostgreSQL: ${contacts} contacts; restore ${restoreMs} ms (CLI start included)`);

  // Quiet now: a second copy of the restored database comes back with exactly its rows.
  const quiet = join(dir, 'quieta.dump');
  t.equal((await cli(['admin', 'backup', '--out', quiet], { DATABASE_URL: target.url! })).code, 0);
  const third = await createTestDatabase();
  t.teardown(() => third.drop());
  const exact = await cli(['admin', 'restore', quiet], { DATABASE_URL: third.url!, SECRETS_KEYS });
  t.equal(exact.code, 0, exact.stderr);
  const copy = await openDatabase({ databaseUrl: third.url, dataDir: 'memory://', poolMax: 1, migrateOnStart: false, log });
  t.teardown(() => copy.close());
  t.same(await countRows(copy.sql), restored, 'same rows in every table');
});
