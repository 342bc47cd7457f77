import { CliError } from './errors.js';
import type { Output } from './output.js';

// Loaded on demand, as the commands that need it do: the everyday commands start without the database driver.
const loadKit = () => import('@asistente/kit');

/**
 * Before a command opens the embedded database in `dataDir` itself: refuses while the server holds it
 * (two openers would corrupt it), and says so when the lock it finds was left by a process that is gone
 * (Ctrl+C cut short, a crash), then lets the command go on: PGlite recovers the directory when it opens it.
 */
export async function checkEmbeddedLock(dataDir: string, out: Output): Promise<void> {
  const { runningEmbedded } = await loadKit();
  const holder = await runningEmbedded(dataDir);
  if (holder) throw new CliError(`La base de datos de ${dataDir} está abierta por el servidor (proceso ${holder.pid}): páralo y vuelve a ejecutar el comando`);
  await noticeStaleLock(dataDir, out);
}

/** Says, when there is one, that `dataDir` carries the lock of a process that is no longer running. */
export async function noticeStaleLock(dataDir: string, out: Output): Promise<void> {
  const { staleEmbedded } = await loadKit();
  const stale = await staleEmbedded(dataDir);
  if (!stale) return;
  const who = stale.pid === undefined ? 'un proceso' : `el proceso ${stale.pid}`;
  out.notice(`Aviso: la base de datos de ${dataDir} quedó marcada como abierta por ${who}, que ya no está en marcha (se cerró de golpe). Se recupera al abrirla; sigo.`);
}
