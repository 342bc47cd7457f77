/** How often a process started without an IPC channel (`npm start`) checks that its parent is still there. */
const PARENT_POLL_MS = 1_000;

/**
 * Calls `onGone` once this process's parent has gone, however it went (SIGKILL included), so that it
 * stops instead of living on as an orphan holding its port and its database. A child of the
 * start:distributed launcher has an IPC channel, whose end closes with the launcher: it knows at once,
 * even when the launcher died before this ran. Any other process polls its parent's pid (npm for
 * `npm start`); a process whose parent is init from the start (a container's PID 1) has nothing to watch.
 */
export function watchParent(onGone: () => void): void {
  let gone = false;
  const once = () => {
    if (gone) return;
    gone = true;
    onGone();
  };
  if (process.connected === false) {
    // Spawned with a channel that has already closed: the launcher died while this process was loading.
    queueMicrotask(once);
    return;
  }
  if (process.channel) {
    process.once('disconnect', once);
    // The channel must not keep the process alive by itself (a listener on it refs it).
    process.channel.unref();
  }
  const parent = process.ppid;
  if (parent > 1) {
    const timer = setInterval(() => {
      if (process.ppid !== parent) once();
    }, PARENT_POLL_MS);
    timer.unref();
  }
}
