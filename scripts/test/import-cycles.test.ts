// Proves the house has no import cycle (files that import each other in a loop, types included), and that the check finds one when there is.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { importCycles } from '../lib/import-cycles.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TREES = ['packages/kit/src', 'packages/contracts/src', 'services', 'gateway/src', 'cli/src', 'web/src', 'scripts'];

t.test('no file of the house imports itself back through others', async (t) => {
  t.same(importCycles(TREES, ROOT), [], 'each cycle is listed with its files');
});

t.test('the check sees a cycle through a type-only import, across folders, and none in a chain', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
  mkdirSync(path.join(dir, 'src/db'), { recursive: true });
  writeFileSync(path.join(dir, 'src/a.ts'), "import { b } from './db/b.js';\nexport const a = b;\n");
  writeFileSync(path.join(dir, 'src/db/b.ts'), "import type { A } from '../c.js';\nexport const b = 1;\nexport type B = A;\n");
  writeFileSync(path.join(dir, 'src/c.ts'), "export type A = number;\nexport { a } from './a.js';\n");
  writeFileSync(path.join(dir, 'src/d.ts'), "import { a } from './a.js';\nexport const d = a;\n");
  t.same(importCycles(['src'], dir), [['src/a.ts', 'src/c.ts', 'src/db/b.ts']]);
  writeFileSync(path.join(dir, 'src/c.ts'), 'export type A = number;\n');
  t.same(importCycles(['src'], dir), [], 'the loop broken, the chain remains');
});
