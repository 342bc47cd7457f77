import { spawn } from 'node:child_process';
import { rename, rm, writeFile } from 'node:fs/promises';
import { createLogger, openDatabase, type Database, type Sql } from '@asistente/kit';
import { CliError, usageError } from '../errors.js';
import { PG_DUMP_MAGIC, fileStartsWith } from './archive.js';
import { secretKeyIdsInUse, serviceSchemas, serviceTables } from './catalog.js';
import { checkKeys, findKeyRing, type KeyCheck } from './key-ring.js';

const log = createLogger('silent', 'backup');

function connect(url: string): Promise<Database> {
  return openDatabase({ databaseUrl: url, dataDir: 'memory://', poolMax: 1, migrateOnStart: false, log });
}

/**
 * The pg_dump command for this database: custom format, every service schema plus `public` (where the
 * migrations' record lives) and the extensions the indexes need (pg_dump leaves extensions out when it is
 * given schemas). The password, if any, stays in the URL the operator already has; nothing is printed of it.
 */
export async function pgDumpArguments(sql: Sql, url: string, out: string): Promise<string[]> {
  const schemas = [...(await serviceSchemas(sql)), 'public'];
  const extensions = (await sql<{ name: string }[]>`select extname as name from pg_extension where extname <> 'plpgsql' order by 1`).map((row) => row.name);
  return [
    '--format=custom',
    `--file=${out}`,
    ...extensions.map((name) => `--extension=${name}`),
    ...schemas.map((name) => `--schema=${name}`),
    `--dbname=${url}`,
  ];
}

export interface PostgresBackup {
  command: string[];
  tables: number;
  secretKeyIds: string[];
}

/**
 * `pg_dump --format=custom` of the service schemas. pg_dump reads in one repeatable-read snapshot of its
 * own, so the services keep running and writing. Without pg_dump on the PATH: the exact commands to run.
 */
export async function backupPostgres(url: string, out: string): Promise<PostgresBackup> {
  const db = await connect(url);
  let args: string[];
  let tables: number;
  let secretKeyIds: string[];
  try {
    const partial = `${out}.partial-${process.pid}`;
    args = await pgDumpArguments(db.sql, url, partial);
    tables = (await serviceTables(db.sql)).length;
    secretKeyIds = await secretKeyIdsInUse(db.sql);
    try {
      await run('pg_dump', args);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    await rename(partial, out);
  } finally {
    await db.close();
  }
  return { command: ['pg_dump', ...args.map((arg) => arg.replace(/\.partial-\d+$/, ''))], tables, secretKeyIds };
}

export interface PostgresRestore {
  tables: number;
  keys: KeyCheck;
}

/**
 * `pg_restore` of a `pg_dump --format=custom` file in one transaction (all or nothing). Refused while a
 * service of the product is connected to the database, and into a database that already has the product's
 * tables unless `force` (then `--clean --if-exists` replaces them, still in the one transaction).
 */
export async function restorePostgres(file: string, url: string, options: { force: boolean; secretsKeys: string | undefined }): Promise<PostgresRestore> {
  if (!(await fileStartsWith(file, PG_DUMP_MAGIC))) throw new CliError(`${file} no es una copia hecha con pg_dump --format=custom`);
  const db = await connect(url);
  try {
    const [{ services } = { services: 0 }] = await db.sql<{ services: number }[]>`
      select count(*)::int as services from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and application_name like 'mi-asistente %'`;
    if (services > 0) throw new CliError(`Hay ${services} conexiones de los servicios de Mi Asistente.IA a esta base de datos: páralos antes de restaurar`);
    const existing = (await serviceTables(db.sql)).length;
    const [migrations] = await db.sql<{ exists: boolean }[]>`select to_regclass('public.pgmigrations') is not null as exists`;
    if ((existing > 0 || migrations?.exists) && !options.force) {
      throw usageError('La base de datos ya tiene datos de Mi Asistente.IA: usa --force para sustituirlos por la copia (se perderá lo que tiene ahora)');
    }
    // The public schema exists in every database: creating it again would fail the restore.
    const list = (await capture('pg_restore', ['--list', file])).split('\n').filter((line) => !/ SCHEMA - public /.test(line));
    const listFile = `${file}.list-${process.pid}`;
    await writeFile(listFile, list.join('\n'), { mode: 0o600 });
    try {
      await run('pg_restore', [
        '--exit-on-error',
        '--single-transaction',
        '--no-owner',
        ...(options.force ? ['--clean', '--if-exists'] : []),
        `--use-list=${listFile}`,
        `--dbname=${url}`,
        file,
      ]);
    } finally {
      await rm(listFile, { force: true });
    }
    const keys = await checkKeys(db.sql, await secretKeyIdsInUse(db.sql), await findKeyRing(options.secretsKeys));
    return { tables: (await serviceTables(db.sql)).length, keys };
  } finally {
    await db.close();
  }
}

/** Runs a PostgreSQL client tool; its own error output becomes the message (it never holds the password). */
function run(command: string, args: string[]): Promise<void> {
  return capture(command, args).then(() => undefined);
}

function capture(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new MissingToolError(command) : error),
    );
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new CliError(`${command} falló (código ${code}): ${stderr.trim()}`));
    });
  });
}

/** pg_dump or pg_restore is not on the PATH. */
export class MissingToolError extends CliError {
  constructor(readonly tool: string) {
    super(`${tool} no está en el PATH: instala las herramientas cliente de PostgreSQL (la misma versión mayor que el servidor o más nueva)`);
    this.name = 'MissingToolError';
  }
}
