import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { supervise } from '../lib/supervise.js';

t.test('a crashed child is started again with a growing backoff while the supervisor keeps going', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'supervise-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Crashes on its first two runs, then stays up.
  const script = path.join(dir, 'child.mjs');
  writeFileSync(
    script,
    `import { readFileSync, writeFileSync } from 'node:fs';
const file = ${JSON.stringify(path.join(dir, 'runs'))};
let runs = 0;
try { runs = Number(readFileSync(file, 'utf8')); } catch {}
writeFileSync(file, String(runs + 1));
if (runs < 2) process.exit(3);
console.log('up');
setInterval(() => {}, 1000);
`,
  );
  const lines: string[] = [];
  const output = new PassThrough();
  const proc = supervise('child', script, { PATH: process.env.PATH ?? '' }, {
    firstDelayMs: 50,
    log: (line: string) => lines.push(line),
    startOptions: { output, onLine: (line: string) => lines.push(line) },
  });
  t.teardown(() => {
    proc.stop();
    proc.child.kill('SIGKILL');
  });
  const deadline = Date.now() + 30_000;
  while (!lines.includes('up') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  t.ok(lines.includes('up'), 'running after two crashes');
  t.equal(proc.restarts, 2);
  t.match(lines.filter((l) => l.includes('restarting')), [/exited \(code 3\); restarting in 50 ms/, /restarting in 100 ms/], 'the delay doubles');
});
