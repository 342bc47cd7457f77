import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
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

const watch = fileURLToPath(new URL('../../packages/kit/dist/parent-watch.js', import.meta.url));
const NEEDS_BUILD = existsSync(watch) ? false : 'run npm run build first: the child uses the built kit';

t.test("a child notices the launcher's death (SIGKILL, nothing passed on), even when it died while the child was loading", { skip: NEEDS_BUILD }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'parent-death-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Watches its parent the way the kit's stop does; `dead-first`: only once the launcher is already gone.
  const child = path.join(dir, 'child.mjs');
  writeFileSync(
    child,
    `const launcherAlive = () => { try { return process.kill(Number(process.env.LAUNCHER), 0); } catch { return false; } };
if (process.env.WHEN === 'dead-first') while (launcherAlive()) await new Promise((resolve) => setTimeout(resolve, 10));
const { watchParent } = await import(${JSON.stringify(watch)});
watchParent(() => process.exit(0));
if (process.env.WHEN === 'running') console.log('watching');
setInterval(() => {}, 1000);
`,
  );
  const launcher = path.join(dir, 'launcher.mjs');
  writeFileSync(
    launcher,
    `import { startNode } from ${JSON.stringify(fileURLToPath(new URL('../lib/processes.js', import.meta.url)))};
const child = startNode('child', ${JSON.stringify(child)}, { ...process.env, LAUNCHER: String(process.pid) });
console.log(child.pid);
`,
  );
  for (const when of ['running', 'dead-first']) {
    const parent = spawn(process.execPath, [launcher], { env: { PATH: process.env.PATH ?? '', WHEN: when }, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: string[] = [];
    parent.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    while (lines.length === 0 || (when === 'running' && !lines.some((line) => line.endsWith('watching')))) await new Promise((resolve) => setTimeout(resolve, 10));
    const pid = Number(lines[0]);
    t.teardown(() => alive(pid) && process.kill(pid, 'SIGKILL'));
    parent.kill('SIGKILL');
    const deadline = Date.now() + 5_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    t.notOk(alive(pid), `the child stopped by itself (launcher killed ${when === 'running' ? 'while it ran' : 'before it was watching'})`);
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
