import { execFile } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '../logger.js';
import { pgliteTemplate, pgliteTemplateFile } from './pglite-template.js';

const run = promisify(execFile);

/**
 * A fresh data directory for the embedded app (`npm start`, spawned by a test) whose database is already
 * migrated: the migrated template's files unpacked into `<dir>/pg`, so the app opens an existing install
 * (about half its first start) instead of running initdb and every migration. Everything else a first
 * start makes (the JWT secret, the key ring) it still makes itself.
 */
export async function migratedDataDir(prefix = 'asistente-app-'): Promise<string> {
  await pgliteTemplate(createLogger('silent', 'test'));
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await mkdir(path.join(dir, 'pg'));
  await run('tar', ['-xf', await pgliteTemplateFile(), '-C', path.join(dir, 'pg')]);
  return dir;
}

/**
 * Node's arguments for an app a test spawns: V8's default tiering for PGlite's WebAssembly (a quick baseline
 * compile, hot functions optimised as they run). The served app compiles the whole module with the
 * optimising compiler at start (kit/db/embedded-settings.ts), about 2 s of CPU that an app living a test's
 * few seconds or minutes never earns back; baseline code alone (the test processes' choice) is slower for
 * the heavy work some of these apps do (a 100k-row import, a backup while writing). The app behaves the same.
 */
export const TEST_APP_NODE_ARGS: readonly string[] = ['--wasm-dynamic-tiering'];
