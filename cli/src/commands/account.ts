import type { AccountDeletionProgress, DeleteAccountStarted, ServiceErasure } from '@asistente/contracts';
import { Option, type Command } from 'commander';
import { contextOf } from '../lib/context.js';
import { usageError } from '../lib/errors.js';
import { askHidden, isInteractive, readStdin } from '../lib/prompt.js';
import { deleteSession } from '../lib/session-store.js';

/** How often the erasure's progress is asked while it runs. */
const POLL_MS = 500;
const STATUS: Record<ServiceErasure['status'], string> = { pending: 'pendiente', running: 'borrando…', done: 'borrado' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function line(service: ServiceErasure): string {
  const problems = service.problems.map((problem) => `\n    ⚠ ${problem}`).join('');
  return `  ${service.label}: ${STATUS[service.status]}${problems}`;
}

/** The password: piped with --password-stdin (first line), or asked without echo on a terminal. */
async function passwordOf(options: { passwordStdin?: boolean }): Promise<string> {
  if (options.passwordStdin) return (await readStdin()).split(/\r?\n/)[0] ?? '';
  if (!isInteractive()) throw usageError('Falta la contraseña: escríbela cuando se pida o pásala con --password-stdin');
  return askHidden('Contraseña (para eliminar la cuenta y todos sus datos): ');
}

/**
 * `asistente account delete`: "Eliminar mi cuenta" from a terminal. The password again, then each service's
 * progress until everything is erased; the saved session is forgotten (it stopped working at once).
 */
export function registerAccountCommands(program: Command): void {
  const account = program.command('account').description('tu cuenta');
  account
    .command('delete')
    .description('elimina tu cuenta y todos sus datos en cada servicio (no se puede deshacer)')
    .addOption(new Option('--password-stdin', 'lee la contraseña de la entrada estándar (para scripts)'))
    .action(async (options: { passwordStdin?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const api = await ctx.authenticated();
      const password = await passwordOf(options);
      if (!password) throw usageError('Escribe tu contraseña para eliminar la cuenta');
      const { id } = await api.post<DeleteAccountStarted>('account/delete', { password });
      if (!ctx.explicitToken) await deleteSession(ctx.apiUrl);
      ctx.out.notice(`Tu cuenta se ha cerrado y se están borrando tus datos (eliminación ${id}).`);
      // The session ended with the account: the progress is read with the deletion's id alone.
      const progressApi = ctx.anonymous();
      let shown = '';
      let progress: AccountDeletionProgress;
      for (;;) {
        progress = await progressApi.get<AccountDeletionProgress>(`account/delete/${id}`);
        const text = progress.services.map(line).join('\n');
        if (text !== shown && progress.status !== 'done') ctx.out.notice(text);
        shown = text;
        if (progress.status === 'done') break;
        await sleep(POLL_MS);
      }
      ctx.out.result(progress, () => `${progress.services.map(line).join('\n')}\nTu cuenta y todos tus datos se han eliminado.`);
    });
}
