import type { RotationCounts, RotationProgress, SecretBox, SecretColumn, Sql, VerifyCounts } from '@asistente/kit';
import { Option, type Command } from 'commander';
import { addBackupCommands } from './admin-backup.js';
import { addResetPasswordCommand } from './admin-reset-password.js';
import { positiveInteger } from '../lib/arguments.js';
import { contextOf } from '../lib/context.js';
import { CliError, usageError } from '../lib/errors.js';
import type { Output } from '../lib/output.js';

interface RotateKeysOptions {
  databaseUrl?: string;
  secretsKeys?: string;
  batchSize: number;
  dryRun?: boolean;
  verify?: boolean;
}

export interface RotationRun {
  sql: Sql;
  box: SecretBox;
  batchSize: number;
  dryRun: boolean;
  onProgress?: (progress: RotationProgress) => void;
  onFailure?: (column: SecretColumn, id: string) => void;
}

const count = new Intl.NumberFormat('es-ES');

// The kit (database driver, PGlite…) takes most of a second to load; only this operator command needs it, so
// it is imported here on demand and the everyday commands start fast.
const loadKit = () => import('@asistente/kit');

/**
 * Re-encrypts every secret column the services registered (platform.secret_columns) under the primary key of
 * `box`, in keyset batches with compare-and-set writes: killed at any point, a rerun picks up exactly what is left.
 */
export async function rotateKeys({ sql, ...options }: RotationRun): Promise<RotationCounts> {
  const { registeredSecretColumns, rotateSecrets, sqlSecretStore } = await loadKit();
  const columns = await registeredSecretColumns(sql);
  return rotateSecrets({ ...options, columns, ...sqlSecretStore(sql, columns) });
}

/** Opens every stored secret with the key ring, e.g. before removing an old key from SECRETS_KEYS. */
export async function verifyKeys({ sql, ...options }: Omit<RotationRun, 'dryRun' | 'onProgress'>): Promise<VerifyCounts> {
  const { registeredSecretColumns, verifySecrets, sqlSecretStore } = await loadKit();
  const columns = await registeredSecretColumns(sql);
  return verifySecrets({ ...options, columns, ...sqlSecretStore(sql, columns) });
}

export function registerAdminCommands(program: Command): void {
  const admin = program.command('admin').description('tareas de operación (hablan directamente con la base de datos)');

  admin
    .command('rotate-keys')
    .description('vuelve a cifrar todos los secretos guardados con la clave principal de SECRETS_KEYS (reanudable)')
    .addOption(new Option('--database-url <url>', 'la base de datos').env('DATABASE_URL'))
    .addOption(new Option('--secrets-keys <keys>', 'anillo de claves "nueva:base64,antigua:base64"; la primera es la principal').env('SECRETS_KEYS'))
    .addOption(new Option('--batch-size <n>', 'filas por lote').argParser(positiveInteger).default(500).env('ASISTENTE_BATCH_SIZE'))
    .addOption(new Option('--dry-run', 'cuenta lo que se rotaría sin escribir nada').conflicts('verify'))
    .addOption(new Option('--verify', 'solo comprueba que cada secreto se descifra con el anillo'))
    .action(async (options: RotateKeysOptions, command: Command) => {
      const ctx = contextOf(command);
      if (!options.databaseUrl) throw usageError('Falta la base de datos: usa --database-url o DATABASE_URL');
      if (!options.secretsKeys) throw usageError('Faltan las claves: usa --secrets-keys o SECRETS_KEYS');
      const kit = await loadKit();
      let box: SecretBox;
      try {
        box = new kit.SecretBox(kit.parseKeyring(options.secretsKeys));
      } catch (error) {
        if (error instanceof kit.SecretsConfigError) throw usageError(error.message);
        throw error;
      }
      const db = await kit.openDatabase({
        databaseUrl: options.databaseUrl,
        dataDir: 'memory://', // unused: with a URL no embedded database starts
        poolMax: 1,
        migrateOnStart: false,
        log: kit.createLogger('silent', 'rotate-keys'),
      });
      try {
        const onFailure = (column: SecretColumn, id: string) =>
          ctx.out.notice(`No se pudo descifrar ${column.table}.${column.column} id=${id}`);
        const run = { sql: db.sql, box, batchSize: options.batchSize, onFailure };
        if (options.verify) {
          reportVerify(ctx.out, await verifyKeys(run));
          return;
        }
        const dryRun = options.dryRun === true;
        const counts = await rotateKeys({ ...run, dryRun, onProgress: progressPrinter(ctx.out) });
        reportRotation(ctx.out, counts, dryRun, box.primaryKeyId);
      } finally {
        await db.close();
      }
    });

  addResetPasswordCommand(admin);
  addBackupCommands(admin);
}

function progressPrinter(out: Output): (progress: RotationProgress) => void {
  return ({ column, counts }) =>
    out.notice(`${column.table}.${column.column}: ${count.format(counts.scanned)} revisados, ${count.format(counts.rotated)} rotados`);
}

function reportRotation(out: Output, counts: RotationCounts, dryRun: boolean, primaryKeyId: string): void {
  out.result({ ...counts, dryRun, primaryKeyId }, () =>
    [
      dryRun ? 'Simulación (no se escribió nada):' : `Rotación terminada con la clave "${primaryKeyId}":`,
      `  Revisados: ${count.format(counts.scanned)}`,
      `  ${dryRun ? 'Se rotarían' : 'Rotados'}: ${count.format(counts.rotated)}`,
      `  Ya estaban al día: ${count.format(counts.alreadyCurrent)}`,
      `  Cambiados durante la rotación (vuelve a ejecutarla): ${count.format(counts.conflicts)}`,
      `  No se pudieron descifrar: ${count.format(counts.failed)}`,
    ].join('\n'),
  );
  if (counts.failed > 0) throw new CliError(`${count.format(counts.failed)} secretos no se pudieron descifrar con SECRETS_KEYS`);
}

function reportVerify(out: Output, counts: VerifyCounts): void {
  out.result(counts, () =>
    [
      'Verificación:',
      `  Revisados: ${count.format(counts.scanned)}`,
      `  Se descifran: ${count.format(counts.ok)}`,
      `  Fallan: ${count.format(counts.failed)}`,
    ].join('\n'),
  );
  if (counts.failed > 0) throw new CliError(`${count.format(counts.failed)} secretos no se pudieron descifrar con SECRETS_KEYS`);
}
