import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_DOCUMENT } from './api-reference/api-reference.js';
import { collectApiDocument } from './api-reference/collect-document.js';

/**
 * `npm run build`'s step after tsc: writes the OpenAPI document into gateway/dist, where the distributed
 * gateway (which only proxies, so it cannot collect the services' route schemas) serves it from.
 * Skipped when the document is newer than every compiled workspace, so `npm start` does not pay for it
 * again; `--force` writes it anyway.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const force = process.argv.includes('--force');
const target = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? BUILT_DOCUMENT;

/** tsc -b rewrites a project's .tsbuildinfo whenever it emits, and leaves it alone when up to date. */
function newestBuild(): number {
  const infos = ['packages', 'services'].flatMap((group) =>
    readdirSync(path.join(root, group)).map((name) => path.join(root, group, name, 'dist', '.tsbuildinfo')),
  );
  infos.push(path.join(root, 'gateway', 'dist', '.tsbuildinfo'), path.join(root, 'package-lock.json'));
  return Math.max(...infos.filter((file) => existsSync(file)).map((file) => statSync(file).mtimeMs));
}

if (!force && existsSync(target) && statSync(target).mtimeMs > newestBuild()) process.exit(0);
const document = (await collectApiDocument()) as { paths: Record<string, Record<string, unknown>> };
await mkdir(path.dirname(target), { recursive: true });
await writeFile(target, `${JSON.stringify(document)}\n`);
const operations = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
console.log(`OpenAPI: ${operations} operaciones en ${path.relative(process.cwd(), target)}`);
