#!/usr/bin/env node
// The PostgreSQL + JetStream pass's files (`list`), and the check that no file which opened a database in
// the embedded pass is missing from them (`verify <folder>`, the folder ASISTENTE_BACKEND_USE named).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceOf } from './lib/test-build.js';
import { backendTestFiles } from './lib/test-passes.js';

const [command, folder] = process.argv.slice(2);
if (command === 'list') {
  console.log(backendTestFiles().join('\n'));
} else if (command === 'verify' && folder) {
  const chosen = new Set(backendTestFiles());
  // Each test process notes the compiled file it ran (.test-build/…/x.test.js): its source is what the list holds.
  const noted = readdirSync(folder).map((name) => sourceOf(readFileSync(path.join(folder, name), 'utf8')));
  const missing = noted.filter((file) => !chosen.has(file)).sort();
  if (missing.length > 0) {
    console.error(`These test files opened a database but the PostgreSQL pass would not run them; make scripts/lib/test-passes.js see what they use:\n  ${missing.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${noted.length} files opened a database in the embedded pass; the PostgreSQL pass (${chosen.size} files) runs every one`);
} else {
  console.error('usage: node scripts/test-passes.js list | verify <folder>');
  process.exit(2);
}
