import type { PasswordResetLink, Sql } from '@asistente/kit';
import { Option, type Command } from 'commander';
import { httpUrl } from '../lib/arguments.js';
import { contextOf } from '../lib/context.js';
import { checkEmbeddedLock } from '../lib/embedded-lock.js';
import { CliError, usageError } from '../lib/errors.js';

interface ResetPasswordOptions {
  databaseUrl?: string;
  dataDir?: string;
  publicUrl: string;
}

// Loaded on demand, as for rotate-keys: the everyday commands start without the database driver.
const loadKit = () => import('@asistente/kit');

/**
 * A one-time link for the account with `email` (any case), the same kind the reset mail carries: for an
 * owner who forgot the password on a server without SMTP_URL. Undefined when no account has the address.
 */
export async function issueResetLink(sql: Sql, email: string, publicUrl: string): Promise<PasswordResetLink | undefined> {
  const { issuePasswordResetLink } = await loadKit();
  const [user] = await sql<{ id: string }[]>`select id from auth.users where lower(email) = lower(${email.trim()})`;
  return user ? issuePasswordResetLink(sql, user.id, publicUrl) : undefined;
}

export function addResetPasswordCommand(admin: Command): void {
  admin
    .command('reset-password')
    .description('imprime un enlace de un solo uso (30 minutos) para que el dueño de la cuenta elija una contraseña nueva')
    .argument('<correo>', 'el correo de la cuenta')
    .addOption(new Option('--database-url <url>', 'la base de datos PostgreSQL (si se da, manda sobre --data-dir)').env('DATABASE_URL'))
    .addOption(new Option('--data-dir <dir>', 'la carpeta de datos de la base integrada (con el servidor parado)').env('DATA_DIR'))
    .addOption(new Option('--public-url <url>', 'la dirección de la aplicación, base del enlace').env('PUBLIC_URL').default('http://localhost:3000').argParser(httpUrl))
    .action(async (email: string, options: ResetPasswordOptions, command: Command) => {
      const ctx = contextOf(command);
      if (!options.databaseUrl && !options.dataDir) throw usageError('Falta la base de datos: usa --database-url (o DATABASE_URL) o --data-dir (o DATA_DIR)');
      // The embedded database belongs to one process: a second opener would corrupt it. A lock whose process
      // is gone does not stand in the owner's way (this is their only way back in without a mailer).
      if (!options.databaseUrl) await checkEmbeddedLock(options.dataDir!, ctx.out);
      const kit = await loadKit();
      const db = await kit.openDatabase({
        databaseUrl: options.databaseUrl,
        dataDir: options.dataDir ?? 'memory://',
        poolMax: 1,
        migrateOnStart: false,
        log: kit.createLogger('silent', 'reset-password'),
      });
      try {
        const link = await issueResetLink(db.sql, email, options.publicUrl);
        if (!link) throw new CliError(`No hay ninguna cuenta con el correo ${email.trim()}`);
        const expires = link.expiresAt.toLocaleTimeString('es-ES', { hour: '2-digit', minute: '2-digit' });
        ctx.out.result({ email: email.trim(), url: link.url, expiresAt: link.expiresAt.toISOString() }, () =>
          [
            `Enlace para restablecer la contraseña de ${email.trim()} (un solo uso, válido hasta las ${expires}):`,
            link.url,
            'Al usarlo se cerrarán todas las sesiones abiertas de la cuenta.',
          ].join('\n'),
        );
      } finally {
        await db.close();
      }
    });
}
