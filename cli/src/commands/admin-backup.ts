import path from 'node:path';
import { Option, type Command } from 'commander';
import { contextOf } from '../lib/context.js';
import { noticeStaleLock } from '../lib/embedded-lock.js';
import { usageError } from '../lib/errors.js';

interface BackupOptions {
  out: string;
  databaseUrl?: string;
  dataDir?: string;
}

interface RestoreOptions {
  databaseUrl?: string;
  dataDir?: string;
  secretsKeys?: string;
  force?: boolean;
}

const count = new Intl.NumberFormat('es-ES');
const seconds = (ms: number) => `${(ms / 1000).toLocaleString('es-ES', { maximumFractionDigits: 1 })} s`;

// Loaded on demand (the database driver, PGlite): the everyday commands start without them.
const loadEmbedded = () => import('../lib/backup/embedded.js');
const loadPostgres = () => import('../lib/backup/postgres.js');
const loadKeyRing = () => import('../lib/backup/key-ring.js');

const databaseUrlOption = () => new Option('--database-url <url>', 'la base de datos PostgreSQL (si se da, manda sobre --data-dir)').env('DATABASE_URL');
const dataDirOption = () => new Option('--data-dir <dir>', 'la carpeta de datos de la base integrada').env('DATA_DIR');

function target(options: { databaseUrl?: string; dataDir?: string }): { databaseUrl: string } | { dataDir: string } {
  if (options.databaseUrl) return { databaseUrl: options.databaseUrl };
  if (options.dataDir) return { dataDir: options.dataDir };
  throw usageError('Falta la base de datos: usa --database-url (o DATABASE_URL) o --data-dir (o DATA_DIR)');
}

/** `admin backup` and `admin restore`: the operator's copies of the whole database, never of the key ring. */
export function addBackupCommands(admin: Command): void {
  admin
    .command('backup')
    .description('copia de seguridad de todos los datos (con el servidor en marcha o parado); nunca incluye el anillo de claves')
    .requiredOption('--out <archivo>', 'dónde guardar la copia')
    .addOption(databaseUrlOption())
    .addOption(dataDirOption())
    .action(async (options: BackupOptions, command: Command) => {
      const ctx = contextOf(command);
      const where = target(options);
      const { keyReminder } = await loadKeyRing();
      const started = Date.now();
      if ('dataDir' in where) {
        const { backupEmbedded } = await loadEmbedded();
        await noticeStaleLock(where.dataDir, ctx.out);
        const summary = await backupEmbedded(where.dataDir, options.out);
        const elapsed = Date.now() - started;
        const ring = `SECRETS_KEYS o ${path.join(where.dataDir, 'secrets.keys')}`;
        ctx.out.result({ file: options.out, topology: 'embedded', ...summary, elapsedMs: elapsed }, () =>
          [
            `Copia guardada en ${options.out} (${summary.live ? 'con el servidor en marcha' : 'con el servidor parado'}, ${seconds(elapsed)}):`,
            `  Tablas: ${count.format(Object.keys(summary.tables).length)}`,
            `  Filas: ${count.format(summary.rows)}`,
            `  Migraciones: ${count.format(summary.migrations)}`,
            keyReminder(ring, summary.secretKeyIds),
          ].join('\n'),
        );
        return;
      }
      const { backupPostgres, MissingToolError, pgDumpArguments } = await loadPostgres();
      try {
        const summary = await backupPostgres(where.databaseUrl, options.out);
        const elapsed = Date.now() - started;
        ctx.out.result({ file: options.out, topology: 'postgres', tables: summary.tables, secretKeyIds: summary.secretKeyIds, elapsedMs: elapsed }, () =>
          [
            `Copia guardada en ${options.out} (pg_dump, formato custom, ${seconds(elapsed)}): ${count.format(summary.tables)} tablas.`,
            keyReminder('SECRETS_KEYS', summary.secretKeyIds),
          ].join('\n'),
        );
      } catch (error) {
        if (!(error instanceof MissingToolError)) throw error;
        // No pg_dump here: the exact command, to run where the client tools are.
        const { openDatabase, createLogger } = await import('@asistente/kit');
        const db = await openDatabase({ databaseUrl: where.databaseUrl, dataDir: 'memory://', poolMax: 1, migrateOnStart: false, log: createLogger('silent', 'backup') });
        try {
          const args = await pgDumpArguments(db.sql, '"$DATABASE_URL"', options.out);
          ctx.out.notice(`Ejecútalo donde estén las herramientas cliente de PostgreSQL:\n  pg_dump ${args.join(' ')}`);
        } finally {
          await db.close();
        }
        throw error;
      }
    });

  admin
    .command('restore')
    .description('restaura una copia de seguridad (con el servidor parado); necesita el mismo anillo de claves')
    .argument('<archivo>', 'la copia hecha con admin backup')
    .addOption(databaseUrlOption())
    .addOption(dataDirOption())
    .addOption(new Option('--secrets-keys <keys>', 'el anillo de claves, si no está en la carpeta de datos').env('SECRETS_KEYS'))
    .option('--force', 'sustituye los datos que ya tenga el destino')
    .action(async (file: string, options: RestoreOptions, command: Command) => {
      const ctx = contextOf(command);
      const where = target(options);
      const { fileStartsWith, GZIP_MAGIC, PG_DUMP_MAGIC } = await import('../lib/backup/archive.js');
      const { keyWarning } = await loadKeyRing();
      const force = options.force === true;
      const started = Date.now();
      if (!(await fileStartsWith(file, GZIP_MAGIC).catch(() => false)) && !(await fileStartsWith(file, PG_DUMP_MAGIC).catch(() => false))) {
        throw usageError(`${file} no es una copia de seguridad de Mi Asistente.IA`);
      }
      if ('dataDir' in where) {
        if (await fileStartsWith(file, PG_DUMP_MAGIC)) throw usageError('Esa copia es de PostgreSQL (pg_dump): restáurala con --database-url');
        const { restoreEmbedded } = await loadEmbedded();
        await noticeStaleLock(where.dataDir, ctx.out);
        const restored = await restoreEmbedded(file, where.dataDir, { force, secretsKeys: options.secretsKeys });
        const elapsed = Date.now() - started;
        const warning = keyWarning(restored.keys, `ni SECRETS_KEYS ni ${path.join(where.dataDir, 'secrets.keys')}`);
        ctx.out.result({ file, topology: 'embedded', tables: restored.tables, rows: restored.rows, upgraded: restored.upgraded, keys: restored.keys, elapsedMs: elapsed }, () =>
          [
            `Copia del ${new Date(restored.manifest.createdAt).toLocaleString('es-ES')} restaurada en ${where.dataDir} (${seconds(elapsed)}):`,
            `  Tablas: ${count.format(Object.keys(restored.tables).length)}`,
            `  Filas: ${count.format(restored.rows)}`,
            ...(restored.upgraded.length > 0 ? [`  Migraciones aplicadas después: ${count.format(restored.upgraded.length)}`] : []),
            keysLine(restored.keys),
          ].join('\n'),
        );
        if (warning) ctx.out.notice(warning);
        return;
      }
      if (!(await fileStartsWith(file, PG_DUMP_MAGIC))) throw usageError('Esa copia es de la base integrada: restáurala con --data-dir');
      const { restorePostgres } = await loadPostgres();
      const restored = await restorePostgres(file, where.databaseUrl, { force, secretsKeys: options.secretsKeys });
      const elapsed = Date.now() - started;
      const warning = keyWarning(restored.keys, 'falta SECRETS_KEYS');
      ctx.out.result({ file, topology: 'postgres', tables: restored.tables, keys: restored.keys, elapsedMs: elapsed }, () =>
        [`Copia restaurada con pg_restore (${seconds(elapsed)}): ${count.format(restored.tables)} tablas.`, keysLine(restored.keys)].join('\n'),
      );
      if (warning) ctx.out.notice(warning);
    });
}

function keysLine(keys: { status: string; secrets?: number }): string {
  if (keys.status === 'ok') return `  Los ${count.format(keys.secrets ?? 0)} secretos de la copia se descifran con el anillo de claves.`;
  if (keys.status === 'none-needed') return '  La copia no tiene secretos cifrados.';
  return '  Los secretos de la copia NO se pueden descifrar con el anillo de claves (ver el aviso).';
}
