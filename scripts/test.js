#!/usr/bin/env node
// `npm test [-- <test files or folders, as sources> <tap's options>]`: brings the compiled test tree
// (`.test-build/`, scripts/lib/test-build.js) up to date, then runs tap on the compiled files: every test
// file, or those named (`services/contacts/test/import.test.ts`, or a folder for the files under it).
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildTestTree, mirrorOf, ROOT } from './lib/test-build.js';
import { allTestFiles } from './lib/test-passes.js';

const args = process.argv.slice(2);
const isTestPath = (arg) => !arg.startsWith('-') && (/\.tsx?$/.test(arg) || (existsSync(arg) && statSync(arg).isDirectory()));
const named = args.filter(isTestPath);
const options = args.filter((arg) => !isTestPath(arg));

/** The test files a folder holds, from tap's include (every file under a `test` folder). */
function underFolder(folder) {
  const prefix = `${path.relative(ROOT, path.resolve(folder))}${path.sep}`;
  return allTestFiles().filter((file) => prefix === path.sep || file.startsWith(prefix));
}

const sources = named.length === 0 ? allTestFiles() : named.flatMap((arg) => (/\.tsx?$/.test(arg) ? [arg] : underFolder(arg)));
await buildTestTree();
const tap = spawn(path.join(ROOT, 'node_modules/.bin/tap'), [...options, ...sources.map(mirrorOf)], { cwd: ROOT, stdio: 'inherit' });
// Ctrl+C reaches tap from the terminal as it reaches this process: this one only waits for tap's answer.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => tap.kill(signal));
tap.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
