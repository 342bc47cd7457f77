import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Notes that the running test file opened a database, when `ASISTENTE_BACKEND_USE` names a folder (CI's
 * embedded pass sets it). `.ci/run` then checks every file noted is one the PostgreSQL pass runs
 * (`scripts/lib/test-passes.js`): a file the runner would leave out of that pass fails CI instead of being
 * skipped unseen.
 */
export function noteBackendUse(): void {
  const folder = process.env.ASISTENTE_BACKEND_USE;
  const file = process.argv[1];
  if (!folder || !file) return;
  const relative = path.relative(process.cwd(), file);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, createHash('sha1').update(relative).digest('hex')), relative);
}
