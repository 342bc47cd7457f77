#!/usr/bin/env node
// Where the suite's time goes: runs `npm test` in CI's passes (embedded, then PostgreSQL + JetStream) with
// tap's plain TAP reporter, and prints per test file its wall time and assertions, slowest first, with
// each pass's total; each file's CPU time beside its wall time shows what it spent waiting.
// `--pass embedded|postgres` runs one; `--top N` limits the rows (default: all).
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTapStream, summarise } from './lib/tap-timings.js';
import { sourceOf } from './lib/test-build.js';
import { PASSES } from './lib/test-passes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? undefined : args[at + 1];
};
const only = option('pass');
const top = Number(option('top') ?? Infinity);
const chosen = PASSES.filter((pass) => !only || pass.name === only);
if (chosen.length === 0) {
  console.error(`--pass must be one of: ${PASSES.map((p) => p.name).join(', ')}`);
  process.exit(2);
}

const configuredNodeArgs = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).tap['node-arg'];
const logs = path.join(root, 'test-timings');
await mkdir(logs, { recursive: true });

/** One pass: its files' rows, its wall time, and whether tap ended green. */
async function run(pass) {
  const started = Date.now();
  const log = createWriteStream(path.join(logs, `${pass.name}.tap`));
  // Given on the command line, node-arg replaces the configured list: the configured ones are passed again.
  const nodeArgs = [...configuredNodeArgs, `--import=${path.join(root, 'scripts/lib/cpu-report.js')}`].map((arg) => `--node-arg=${arg}`);
  const child = spawn(process.execPath, [path.join(root, 'scripts/test.js'), '--reporter=tap', ...nodeArgs, ...pass.tapArgs()], { cwd: root, env: pass.env(process.env), stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.pipe(log);
  // tap names the compiled files it ran; the rows name their sources.
  const files = (await parseTapStream(child.stdout)).map((row) => ({ ...row, file: sourceOf(row.file) }));
  const code = await new Promise((resolve) => child.on('close', resolve));
  return { pass: pass.name, files, seconds: (Date.now() - started) / 1000, green: code === 0 };
}

let green = true;
for (const pass of chosen) {
  const result = await run(pass);
  green &&= result.green;
  console.log(summarise(result, top));
}
console.log(`\nThe TAP output of each pass is in ${path.relative(process.cwd(), logs)}/.`);
process.exit(green ? 0 : 1);
