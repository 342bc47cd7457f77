import { spawn } from 'node:child_process';
import { readdir, rename, rm, rmdir } from 'node:fs/promises';

/**
 * The child's body, plain JavaScript run with `--eval` (it loads the same from the sources and from the
 * build); its modules come as URLs resolved by the caller. Signals are the parent's to act on: a Ctrl+C
 * during start-up waits for the data directory, as it waited for the worker before, and the parent kills
 * this process if it exits first.
 */
const INITDB_BODY = `
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
const [dataDir, modules, settings] = [process.argv[1], JSON.parse(process.argv[2]), JSON.parse(process.argv[3])];
const [{ PGlite }, { pg_trgm }, { unaccent }] = await Promise.all(modules.map((url) => import(url)));
const db = await PGlite.create({ dataDir, extensions: { pg_trgm, unaccent }, startParams: [...PGlite.defaultStartParams, ...settings] });
await db.close();
`;

/** Whether `dataDir` holds nothing yet (or does not exist): the only case made in a child process. */
export async function isEmptyDir(dataDir: string): Promise<boolean> {
  const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.length === 0;
}

/**
 * Creates a new data directory (initdb) in a short-lived child process, so the process that serves never
 * holds what initdb leaves: a second PGlite, the initdb program and their compilations, ~45 MB resident
 * measured after a first start (the serving worker's allocator keeps what its thread freed). The child
 * works in `<dataDir>.initdb` and the result is renamed into place, so an interrupted first start leaves
 * no half-made directory for the next one to open. The child runs V8's baseline compiler only: it lives a
 * few seconds and compiling PGlite for speed would cost it more CPU than it saves.
 */
export async function initialiseDataDir(dataDir: string, modules: string[], settings: readonly string[]): Promise<void> {
  const staging = `${dataDir}.initdb`;
  await rm(staging, { recursive: true, force: true });
  // NODE_OPTIONS left out: a test runner's loader has nothing to do in this child.
  const { NODE_OPTIONS: _runnerOptions, ...env } = process.env;
  const child = spawn(process.execPath, ['--liftoff-only', '--input-type=module', '--eval', INITDB_BODY, staging, JSON.stringify(modules), JSON.stringify(settings)], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2_000)));
  try {
    const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
    if (code !== 0) throw new Error(`The embedded database could not be created (initdb exit code ${code}): ${stderr.trim()}`);
  } finally {
    process.off('exit', killChild);
  }
  // The folder the caller made for it is empty: replaced by the one just made.
  await rmdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, dataDir);
}
