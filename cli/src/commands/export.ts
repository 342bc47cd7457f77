import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AccountExport, AccountExportStarted } from '@asistente/contracts';
import { Option, type Command } from 'commander';
import { contextOf } from '../lib/context.js';
import { CliError } from '../lib/errors.js';
import { ProgressBar } from '../lib/progress.js';

/** How often the build's progress is asked while it runs. */
const POLL_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `asistente export --out FILE`: "Descargar mis datos" from a terminal. Asks the server to build the archive,
 * shows its progress, then streams the ZIP to FILE (written beside it and renamed when complete, so a broken
 * download never leaves a file that looks whole). Needs a session: a personal access token cannot export.
 */
export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('descarga todos los datos de tu cuenta en un ZIP')
    .addOption(new Option('--out <archivo>', 'archivo ZIP de destino').makeOptionMandatory())
    .action(async (options: { out: string }, command: Command) => {
      const ctx = contextOf(command);
      const api = await ctx.authenticated();
      const started = await api.post<AccountExportStarted>('account/export');
      let shown = -1;
      let current: AccountExport;
      for (;;) {
        current = await api.get<AccountExport>(`account/export/${started.id}`);
        if (current.status !== 'running') break;
        if (current.progress !== shown) ctx.out.notice(`Preparando tus datos… ${current.progress}%`);
        shown = current.progress;
        await sleep(POLL_MS);
      }
      if (current.status === 'failed') throw new CliError('No se pudo preparar la exportación de tus datos: vuelve a intentarlo');

      const size = current.size ?? 0;
      const bar = new ProgressBar(size, 'Descargando');
      let done = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          done += chunk.length;
          bar.update(done);
          callback(null, chunk);
        },
      });
      const partial = `${options.out}.partial`;
      try {
        const body = Readable.fromWeb(await api.download(`account/export/${started.id}/download`));
        await pipeline(body, counted, createWriteStream(partial));
      } catch (error) {
        bar.abort();
        await rm(partial, { force: true });
        throw error;
      }
      await rename(partial, options.out);
      bar.finish();
      ctx.out.result({ id: started.id, file: options.out, bytes: done, expiresAt: current.expiresAt }, () => `Tus datos están en ${options.out}`);
    });
}
