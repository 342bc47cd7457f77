import { exited, startNode } from './processes.js';

/**
 * Keeps `node <script>` running: a child that dies on its own is started
 * again after a backoff (doubling from `firstDelayMs` up to `maxDelayMs`,
 * back to the start once a child has stayed up `stableMs`), while the other
 * processes of the topology keep serving. `stop()` ends it for good.
 * @param {string} name
 * @param {string} script
 * @param {NodeJS.ProcessEnv} env
 * @param {{ firstDelayMs?: number, maxDelayMs?: number, stableMs?: number, log?: (line: string) => void, startOptions?: Parameters<typeof startNode>[3] }} [options]
 */
export function supervise(name, script, env, options = {}) {
  const { firstDelayMs = 500, maxDelayMs = 30_000, stableMs = 60_000, log = (line) => console.error(line) } = options;
  let delay = firstDelayMs;
  let stopped = false;
  let restarts = 0;
  /** @type {NodeJS.Timeout | undefined} */
  let pending;
  /** @type {import('node:child_process').ChildProcess} */
  let child;

  const launch = () => {
    const startedAt = Date.now();
    child = startNode(name, script, env, options.startOptions);
    void exited(child).then((code) => {
      if (stopped) return;
      if (Date.now() - startedAt >= stableMs) delay = firstDelayMs;
      log(`start-distributed: ${name} exited (code ${code}); restarting in ${delay} ms`);
      pending = setTimeout(() => {
        restarts++;
        launch();
        log(`start-distributed: ${name} restarted (pid ${child.pid})`);
      }, delay);
      delay = Math.min(delay * 2, maxDelayMs);
    });
  };
  launch();

  return {
    name,
    /** The running child (a new one after each restart). */
    get child() {
      return child;
    },
    get restarts() {
      return restarts;
    },
    /** No more restarts; the caller stops the running child. */
    stop() {
      stopped = true;
      clearTimeout(pending);
    },
  };
}
