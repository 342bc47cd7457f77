import v8 from 'node:v8';

/**
 * PostgreSQL settings of the embedded database, passed to PGlite as startup options. Its memory is one
 * WebAssembly memory that grows and never shrinks, and PGlite zeroes PostgreSQL's shared memory when it
 * starts, so the whole of shared_buffers is resident from the first second: PostgreSQL's default of 128 MB
 * measured 151 MB of that memory resident in an idle process, 32 MB measured 47 MB. The data files are read
 * through the operating system's cache, which PGlite's own buffers only duplicate: with 100k contacts
 * imported, lists and searches answered as fast with 32 MB as with 128 MB (bench/memory.js --contacts).
 */
export const POSTGRES_SETTINGS: readonly string[] = ['-c', 'shared_buffers=32MB'];

let tuned = false;

/**
 * PGlite's 8.7 MB of WebAssembly compiled once, by V8's optimising compiler, instead of V8's default: a
 * quick baseline compile, then the hot functions optimised again in the background as they run. Measured
 * here (a data directory opened in a worker, idle or after 100k rows written): the default left 65-160 MB
 * more resident (the background compilations' buffers, kept by the allocator of each compiler thread) and
 * took 3.3 s of CPU to open a data directory against 2.1 s; queries run as fast (CPU-bound ones 1.5x faster
 * than baseline code alone). V8's flags belong to the process: this is set before the first PGlite compiles, and the only
 * other WebAssembly of the process (undici's HTTP parser) is small.
 */
export function compileWasmOnce(): void {
  if (tuned) return;
  tuned = true;
  if (process.execArgv.some(choosesWasmTier)) return;
  v8.setFlagsFromString('--no-liftoff');
}

/**
 * A tier chosen on the command line wins. The test processes choose baseline code alone (`--liftoff-only`):
 * they live seconds, so the optimising compile of the whole module (about 2 s of CPU per process that opens
 * a database) never pays back.
 */
function choosesWasmTier(arg: string): boolean {
  return /^--(no-)?(liftoff|wasm-tier-up|wasm-dynamic-tiering)\b|^--liftoff-only/.test(arg);
}
