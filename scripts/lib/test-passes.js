import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The folders whose tests may reach a database, the bus or a process of the distributed topology. */
const SERVER_SIDE = ['packages', 'services', 'gateway', 'cli', 'scripts'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);

/**
 * What a test (or a local helper it imports) calls when it opens a database, the bus or a distributed
 * process: the kit's test platforms and databases, a configured DATABASE_URL/NATS_URL, a service booted
 * as a process. Such a file runs in both passes; one that calls none runs once (the embedded pass). A file
 * that opens PGlite itself (`startEmbeddedPostgres`) meets the same database in both passes: once is enough.
 */
const USES_BACKEND = /\b(createTestPlatform|buildServicesApp|createTestDatabase|createPlatform|postgresTemplate|openDatabase|runService)\b|\b(DATABASE_URL|NATS_URL)\b|start-distributed|\bspawn\(|\bfork\(/;
const LOCAL_IMPORT = /\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function walk(dir, found) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, found);
    else if (entry.name.endsWith('.test.ts') && full.split(path.sep).includes('test')) found.push(full);
  }
  return found;
}

/** Every test file the embedded pass runs (tap's `include`), relative to the repository. */
export function allTestFiles() {
  const dirs = [...SERVER_SIDE, 'web'].map((d) => path.join(root, d)).filter(existsSync);
  return dirs.flatMap((dir) => walk(dir, [])).map((file) => path.relative(root, file)).sort();
}

/** A local import as a file on disk: `./x.js` is `./x.ts` in the source tree. */
function resolveLocal(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate;
  }
  return undefined;
}

/** Whether `file` or a test helper it imports (transitively, inside test folders) uses a backend. */
function usesBackend(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  if (USES_BACKEND.test(source)) return true;
  for (const match of source.matchAll(LOCAL_IMPORT)) {
    const imported = resolveLocal(file, match[1] ?? match[2]);
    // Only the tests' own helpers: a file under src/ is the code under test, reached through the kit anyway.
    if (imported && imported.split(path.sep).includes('test') && usesBackend(imported, seen)) return true;
  }
  return false;
}

/** The files the PostgreSQL + JetStream pass runs: server-side tests that use a backend. */
export function backendTestFiles() {
  return allTestFiles().filter((file) => SERVER_SIDE.includes(file.split('/')[0]) && usesBackend(path.join(root, file)));
}

const withoutBackend = (env) => {
  const { DATABASE_URL: _db, NATS_URL: _nats, ...rest } = env;
  return rest;
};

/** CI's two passes of `npm test`, as `.ci/run` and `npm run test:timings` run them. */
export const PASSES = [
  { name: 'embedded', env: withoutBackend, tapArgs: () => [] },
  {
    name: 'postgres',
    env: (env) => ({ ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres', NATS_URL: 'nats://127.0.0.1:4222' }),
    tapArgs: () => backendTestFiles(),
  },
];
