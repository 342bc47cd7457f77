import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { migrationsFingerprint } from './migrations-fingerprint.js';

let cached: Promise<Blob> | undefined;

/**
 * A dump of a freshly migrated PGlite, built once per set of migrations and
 * kept in the temp directory: a test database then loads in well under a
 * second instead of running initdb and every migration (several seconds).
 */
export function pgliteTemplate(log: Logger): Promise<Blob> {
  cached ??= loadOrBuild(log);
  return cached;
}

/**
 * Where the template of the current migrations is kept: a plain tar of PGlite's data directory ("compact":
 * a template from before the trimming and checkpoint below is not reused).
 */
export async function pgliteTemplateFile(): Promise<string> {
  return path.join(tmpdir(), `asistente-pglite-compact-${await migrationsFingerprint()}.tar`);
}

async function loadOrBuild(log: Logger): Promise<Blob> {
  const file = await pgliteTemplateFile();
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const embedded = await startEmbeddedPostgres('memory://');
    await migrate(embedded.url, log);
    const sql = postgres(embedded.url, { max: 1, onnotice: () => {} });
    // A third of the dump, loaded again by every test database and app a test starts: the code only ever uses
    // the `postgres` database (nothing creates a database from them in PGlite).
    await sql`update pg_database set datistemplate = false where datname in ('template0', 'template1')`;
    await sql.unsafe('drop database template0');
    await sql.unsafe('drop database template1');
    // The dump is of a running database, which every copy recovers from its last checkpoint when it opens:
    // without this one, each test database and each app a test starts replayed the migrations' whole WAL.
    await sql`checkpoint`;
    await sql.end();
    const dump = await embedded.dump();
    await embedded.stop();
    // Written aside and renamed: test processes building it at once never read half a file.
    const partial = `${file}.${process.pid}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  }
}
