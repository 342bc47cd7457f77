// The import cycles between a tree's own TypeScript files: files that import each other in a loop, type-only
// imports included (a loop of types still ties the files' meaning together). Used by the test that keeps the
// house at none; the files are read as text (no compiler), the way an import is written in this house.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every .ts and .tsx file under `dir`, declaration files aside. */
function sources(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx` in the sources), or undefined. */
function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  return [`${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find((file) => existsSync(file) && statSync(file).isFile());
}

/** The cycles among the files under `roots` (folders, absolute or relative to `cwd`), each as its files, sorted. */
export function importCycles(roots, cwd = process.cwd()) {
  const files = roots.flatMap((root) => sources(path.resolve(cwd, root)));
  const edges = new Map(files.map((file) => [file, new Set()]));
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(file, match[1]);
      if (target && edges.has(target)) edges.get(file).add(target);
    }
  }
  // Tarjan's strongly connected components: a component of two or more files (or a file importing itself) is a cycle.
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (file) => {
    order.set(file, index);
    low.set(file, index++);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file)) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), order.get(next)));
    }
    if (low.get(file) !== order.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(path.relative(cwd, member));
    } while (member !== file);
    if (component.length > 1 || edges.get(file).has(file)) cycles.push(component.sort());
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return cycles;
}
