import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Starts `node <script>` as a named child whose every output line is written
 * to our stdout prefixed with the name. The child gets its own process group
 * (detached) so a terminal's Ctrl+C reaches only the parent, which forwards
 * one signal: runService shuts down once and then exits. Its IPC channel
 * carries nothing: it closes when the parent dies, however it dies (SIGKILL
 * too), and the kit's watchParent stops the child then.
 * @param {string} name
 * @param {string} script path of the entry point
 * @param {NodeJS.ProcessEnv} env
 * @param {{ cwd?: string, width?: number, output?: NodeJS.WritableStream, onLine?: (line: string) => void }} [options]
 */
export function startNode(name, script, env, options = {}) {
  const child = spawn(process.execPath, [script], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
  const prefix = `${name.padEnd(options.width ?? 8)} | `;
  const output = options.output ?? process.stdout;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      output.write(prefix + line + '\n');
      options.onLine?.(line);
    });
  }
  return child;
}

/**
 * Resolves with the exit code once `child` has exited and its output is
 * flushed ('close', not 'exit': its last lines may still be in the pipe).
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<number>}
 */
export function exited(child) {
  return new Promise((resolve) => {
    if (child.stdout?.closed && (child.exitCode !== null || child.signalCode !== null)) resolve(child.exitCode ?? 1);
    else child.once('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Polls `url` until it answers 2xx; rejects after `timeoutMs` or as soon as
 * `child` exits, whichever comes first.
 * @param {string} url
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} [timeoutMs]
 */
export async function waitReady(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${url}: the process exited before it was ready`);
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs / 1000} s`);
}

/**
 * Whether `child` is still running.
 * @param {import('node:child_process').ChildProcess} child
 */
export function alive(child) {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Sends `signal` to each running child, waits for them, and SIGKILLs any
 * still alive after `graceMs`.
 * @param {import('node:child_process').ChildProcess[]} children
 * @param {NodeJS.Signals} [signal]
 * @param {number} [graceMs]
 */
export async function stopAll(children, signal = 'SIGTERM', graceMs = 10_000) {
  const running = children.filter(alive);
  for (const child of running) child.kill(signal);
  const timer = setTimeout(() => running.forEach((c) => c.kill('SIGKILL')), graceMs);
  await Promise.all(running.map(exited));
  clearTimeout(timer);
}
