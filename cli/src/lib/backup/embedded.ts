import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  announceEmbedded,
  assertDataDirFree,
  createLogger,
  DataDirInUseError,
  migrate,
  MIGRATIONS_DIR,
  openDatabase,
  runningEmbedded,
  startEmbeddedPostgres,
  type Database,
} from '@asistente/kit';
import { CliError, usageError } from '../errors.js';
import { ArchiveWriter, type Manifest } from './archive.js';
import { checkKeys, findKeyRing, type KeyCheck } from './key-ring.js';
import { dumpDatabase, type DumpSummary } from './logical-dump.js';
import { loadArchive, readManifest, type LoadSummary } from './logical-restore.js';

const log = createLogger('silent', 'backup');

/** A plain client on an embedded database's socket, without migrating it. */
function client(url: string): Promise<Database> {
  return openDatabase({ databaseUrl: url, dataDir: 'memory://', poolMax: 1, migrateOnStart: false, log });
}

export interface EmbeddedBackup extends DumpSummary {
  /** true: taken from the running server, through its database's socket. */
  live: boolean;
}

/**
 * Backs up `dataDir`. Server running: a second client on its database's socket reads everything in one
 * repeatable-read transaction (never the files under it). Server stopped: this process opens the directory
 * itself, marked as held so that a server started meanwhile refuses it, and reads it the same way.
 */
export async function backupEmbedded(dataDir: string, out: string): Promise<EmbeddedBackup> {
  const running = await runningEmbedded(dataDir);
  if (running) {
    if (running.url === undefined) throw new CliError(`La base de datos de ${dataDir} se está abriendo (proceso ${running.pid}): espera a que esté en marcha y vuelve a intentarlo`);
    return { ...(await dumpTo(running.url, out)), live: true };
  }
  const pgDir = path.join(dataDir, 'pg');
  if (!(await hasFiles(pgDir))) throw new CliError(`No hay ninguna base de datos en ${dataDir}`);
  // Marked before PGlite starts, as the server does: its postmaster.pid is never there without a holder named.
  const release = await announceEmbedded(dataDir);
  try {
    const embedded = await startEmbeddedPostgres(pgDir);
    try {
      return { ...(await dumpTo(embedded.url, out)), live: false };
    } finally {
      await embedded.stop();
    }
  } finally {
    await release();
  }
}

async function dumpTo(url: string, out: string): Promise<DumpSummary> {
  const db = await client(url);
  const writer = new ArchiveWriter(out);
  try {
    const summary = await dumpDatabase(db.sql, writer, 'pglite');
    await writer.commit();
    return summary;
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    await db.close();
  }
}

export interface EmbeddedRestore extends LoadSummary {
  manifest: Manifest;
  /** Migrations newer than the backup, applied after loading it. */
  upgraded: string[];
  keys: KeyCheck;
}

/**
 * Restores `file` into `dataDir` with the server stopped. The database is rebuilt beside the old one
 * (`pg.restoring`): migrated to the backup's version, loaded, brought up to this version's migrations and
 * checked against the key ring; only then does it take the place of `pg/`. A failure leaves `pg/` untouched.
 */
export async function restoreEmbedded(file: string, dataDir: string, options: { force: boolean; secretsKeys: string | undefined }): Promise<EmbeddedRestore> {
  try {
    await assertDataDirFree(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new CliError(`El servidor está en marcha con la carpeta de datos ${dataDir} (proceso ${error.presence.pid}): páralo antes de restaurar`);
    }
    throw error;
  }
  const pgDir = path.join(dataDir, 'pg');
  if ((await hasFiles(pgDir)) && !options.force) {
    throw usageError(`La carpeta de datos ${dataDir} ya tiene una base de datos: usa --force para sustituirla por la copia (se perderá lo que tiene ahora)`);
  }
  const manifest = await readManifest(file);
  const local = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort().map((name) => name.replace(/\.sql$/, ''));
  const known = manifest.migrations.every((name, index) => local[index] === name);
  if (!known) throw new CliError('La copia es de una versión más nueva de Mi Asistente.IA (tiene migraciones que esta no conoce): actualiza antes de restaurar');

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const staging = path.join(dataDir, 'pg.restoring');
  await rm(staging, { recursive: true, force: true });
  const release = await announceEmbedded(dataDir);
  try {
    const embedded = await startEmbeddedPostgres(staging);
    let result: EmbeddedRestore;
    try {
      if (manifest.migrations.length > 0) await migrate(embedded.url, log, manifest.migrations.length);
      const db = await client(embedded.url);
      let loaded: LoadSummary;
      try {
        loaded = await loadArchive(db.sql, file);
      } finally {
        await db.close();
      }
      const upgraded = await migrate(embedded.url, log);
      const checked = await client(embedded.url);
      try {
        const keys = await checkKeys(checked.sql, manifest.secretKeyIds, await findKeyRing(options.secretsKeys, dataDir));
        result = { ...loaded, manifest, upgraded, keys };
      } finally {
        await checked.close();
      }
    } finally {
      await embedded.stop();
    }
    const replaced = `${pgDir}.replaced-${process.pid}`;
    if (await exists(pgDir)) await rename(pgDir, replaced);
    await rename(staging, pgDir);
    await rm(replaced, { recursive: true, force: true });
    return result;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    await release();
  }
}

async function exists(target: string): Promise<boolean> {
  return stat(target).then(
    () => true,
    () => false,
  );
}

async function hasFiles(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length > 0;
  } catch {
    return false;
  }
}
