// The tree the tests run from: `.test-build/`, the repository mirrored at the same depths, every TypeScript
// file beside its JavaScript compiled once by esbuild, everything else linked to the original.
//
// Why: tsx transforms nothing twice (it caches), but its loader hooks run on a thread of their own and every
// module of a test process, Fastify's and tap's included, crosses to it and back: loading the gateway's
// graph took 2.6 s of CPU through tsx against 1.2 s as plain JavaScript, about 1 s per test file over 214
// files, on a suite whose two CPUs are busy throughout. Compiled once here, each test process loads plain
// JavaScript with no hooks at all.
//
// The mirror keeps the repository's layout so that what a file finds from `import.meta.url` (fixtures,
// `ROOT`, the migrations, a sibling's source read as text) is where it was: `.ts` files stay readable as
// links beside their `.js`, plain JavaScript is copied, build outputs and `node_modules` are links, and the
// workspaces' package.json point their `asistente-source` entries at the compiled `.js`. It is only ever added to and brought up to
// date file by file (written aside, then renamed): a run beside another one never sees a half-built tree.
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MIRROR_NAME = '.test-build';
export const MIRROR = path.join(ROOT, MIRROR_NAME);

/** Entries at the top that the tests never import from: not mirrored. */
const LEFT_OUT = new Set(['.git', MIRROR_NAME, '.tap', 'coverage', 'data', 'test-timings']);
/** Folders linked whole, never walked: built or installed, no TypeScript source inside. */
const LINKED_WHOLE = new Set(['node_modules', 'dist', 'public', 'out', 'test-artifacts']);
const SOURCE = /(?<!\.d)\.tsx?$/;
/**
 * JavaScript that is already JavaScript is copied, not linked: Node runs a linked module from where the link
 * points, so its own `import.meta.url`, and the files it imports, would be the repository's, not the mirror's.
 */
const PLAIN_JS = /\.[mc]?js$/;

/**
 * What `tsx` gave these files (the root tsconfig's ES2022 target, so class fields are defined, not
 * assigned), plus React's automatic runtime for the web's `.tsx`.
 */
const TSCONFIG = { compilerOptions: { target: 'ES2022', useDefineForClassFields: true, jsx: 'react-jsx' } };

/** The compiled module of a source file: `x.ts`/`x.tsx` → `x.js`. */
const compiledName = (name) => name.replace(SOURCE, '.js');

/** A test file's path in the mirror, relative to the repository, from its source path (`.test.ts`). */
export function mirrorOf(sourceFile) {
  return path.join(MIRROR_NAME, compiledName(path.relative(ROOT, path.resolve(ROOT, sourceFile))));
}

/** The source a mirrored file was compiled from, relative to the repository (as the tests name themselves). */
export function sourceOf(mirroredFile) {
  const relative = path.relative(MIRROR, path.resolve(ROOT, mirroredFile));
  if (relative.startsWith('..')) return path.relative(ROOT, path.resolve(ROOT, mirroredFile));
  for (const extension of ['.ts', '.tsx']) {
    const candidate = relative.replace(/\.js$/, extension);
    if (existsSync(path.join(ROOT, candidate))) return candidate;
  }
  return relative;
}

function replaceWith(target, write) {
  const aside = `${target}.${process.pid}.tmp`;
  write(aside);
  renameSync(aside, target);
}

/** `link` → `target`, made or replaced unless it already points there. */
function link(target, linkPath) {
  let current;
  try {
    current = readlinkSync(linkPath);
  } catch {
    current = undefined;
  }
  if (current === target) return;
  replaceWith(linkPath, (aside) => symlinkSync(target, aside));
}

function copy(source, target) {
  if (isUpToDate(target, source) && !lstatSync(target).isSymbolicLink()) return;
  replaceWith(target, (aside) => copyFileSync(source, aside));
}

function isUpToDate(output, source) {
  try {
    return statSync(output).mtimeMs >= statSync(source).mtimeMs;
  } catch {
    return false;
  }
}

/** A workspace's package.json with its `asistente-source` entries pointing at the compiled JavaScript. */
function mirrorPackageJson(source, output) {
  const text = readFileSync(source, 'utf8');
  const rewritten = text.replace(/("asistente-source"\s*:\s*"[^"]+)\.tsx?"/g, '$1.js"');
  if (existsSync(output) && !lstatSync(output).isSymbolicLink() && readFileSync(output, 'utf8') === rewritten) return;
  replaceWith(output, (aside) => writeFileSync(aside, rewritten));
}

/**
 * The web's sources import without extensions (Vite resolves them; Node does not): each relative specifier
 * that names no file is given the `.js` of the source it means.
 */
function withExtensions(code, sourceFile) {
  const directory = path.dirname(sourceFile);
  const resolved = (specifier) => {
    if (/\.(m?js|cjs|json|node)$/.test(specifier)) return specifier;
    for (const [suffix, compiled] of [['.ts', '.js'], ['.tsx', '.js'], ['/index.ts', '/index.js'], ['/index.tsx', '/index.js']]) {
      if (existsSync(path.join(directory, `${specifier}${suffix}`))) return `${specifier}${compiled}`;
    }
    return specifier;
  };
  return code.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.{1,2}\/[^"]+)"/g, (_, before, specifier) => `${before}"${resolved(specifier)}"`);
}

async function compile(sourceFile, output) {
  const source = readFileSync(sourceFile, 'utf8');
  const result = await transform(source, {
    loader: sourceFile.endsWith('.tsx') ? 'tsx' : 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: sourceFile,
    tsconfigRaw: TSCONFIG,
  });
  replaceWith(output, (aside) => writeFileSync(aside, withExtensions(result.code, sourceFile)));
}

/** Mirrors one folder into `into`, adding the compiles it starts to `compiles`. */
function mirrorFolder(from, into, compiles) {
  mkdirSync(into, { recursive: true });
  const names = new Set(readdirSync(from).filter((name) => from !== ROOT || !LEFT_OUT.has(name)));
  // What the source no longer has goes: a test deleted or renamed must not run on from its old copy.
  const kept = new Set([...names, ...[...names].filter((name) => SOURCE.test(name)).map(compiledName)]);
  for (const name of readdirSync(into)) {
    if (!kept.has(name) && !name.endsWith('.tmp')) rmSync(path.join(into, name), { recursive: true, force: true });
  }
  for (const name of names) {
    const source = path.join(from, name);
    const target = path.join(into, name);
    const stat = lstatSync(source);
    if (from === ROOT && name === 'node_modules') mirrorNodeModules(source, target);
    else if (stat.isDirectory() && !LINKED_WHOLE.has(name)) mirrorFolder(source, target, compiles);
    else if (stat.isFile() && PLAIN_JS.test(name)) copy(source, target);
    else if (name === 'package.json' && from !== ROOT) mirrorPackageJson(source, target);
    else link(path.relative(into, source), target);
    if (stat.isFile() && SOURCE.test(name)) {
      const compiled = compiledName(name);
      if (names.has(compiled)) throw new Error(`${path.relative(ROOT, source)}: a ${compiled} already sits beside it`);
      const output = path.join(into, compiled);
      if (!isUpToDate(output, source)) compiles.push(compile(source, output));
    }
  }
}

/**
 * `node_modules` as a folder of links to the repository's, except the workspaces' own links
 * (`@asistente/*`, relative), which land on the mirrored workspaces.
 */
function mirrorNodeModules(from, into) {
  mkdirSync(into, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    if (name === '@asistente') {
      mkdirSync(path.join(into, name), { recursive: true });
      for (const workspace of readdirSync(source)) link(readlinkSync(path.join(source, workspace)), path.join(into, name, workspace));
    } else {
      link(path.relative(into, source), path.join(into, name));
    }
  }
}

/** Brings `.test-build/` up to date with the repository; returns how many files it compiled. */
export async function buildTestTree() {
  mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
  const compiles = [];
  mirrorFolder(ROOT, MIRROR, compiles);
  await Promise.all(compiles);
  return compiles.length;
}
