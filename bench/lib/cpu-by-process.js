// Where a run's CPU went, by process group: read from /proc before and after, so a benchmark can say what
// each request cost the gateway, each service, PostgreSQL and the load generator itself (Linux only).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TICKS_PER_SECOND = 100;
/** This checkout: on a machine shared with other checkouts, only the processes started from it count. */
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The group a process counts in: the service its script names, PostgreSQL, NATS, this process, or none.
 * With `database`, PostgreSQL is only the backends serving that database (`postgres: [cluster:] <user> <db> …`), not
 * the server's other backends and processes, which other work on a shared server keeps busy.
 */
function groupOf(pid, own, database) {
  if (pid === own) return 'load generator (this process)';
  let cmdline;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
  if (cmdline.includes(CHECKOUT)) {
    const service = cmdline.match(/services\/([a-z]+)\/dist\//);
    if (service) return service[1];
    if (/gateway\/dist\/main\.js/.test(cmdline)) return 'gateway';
    if (/start-distributed\.js/.test(cmdline)) return 'launcher (start-distributed)';
    if (/floor-server\.js/.test(cmdline)) return 'floor';
    if (/lean-floor\.js/.test(cmdline)) return 'lean floor';
  }
  // The server and its backends (`postgres: <user> <db> …` once a backend renames itself).
  if (/^postgres|\/postgres /.test(cmdline)) return database === undefined || cmdline.split(' ').includes(database) ? 'postgresql' : undefined;
  if (/nats-server/.test(cmdline)) return 'nats';
  return undefined;
}

/** CPU seconds (user + system) of every process in a named group, now (`database`: see `groupOf`). */
export function cpuSnapshot(database) {
  const own = process.pid;
  const seconds = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const group = groupOf(pid, own, database);
    if (!group) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    seconds.set(group, (seconds.get(group) ?? 0) + ticks / TICKS_PER_SECOND);
  }
  return seconds;
}

/**
 * What each group spent between two snapshots, in microseconds per request. Processes that started or ended
 * between them are counted from zero or not at all, so take them around runs whose processes were already up.
 */
export function cpuPerRequest(before, after, requests) {
  const cpu = {};
  for (const [group, total] of after) {
    const spent = total - (before.get(group) ?? 0);
    if (spent > 0) cpu[group] = Math.round((spent * 1e6) / requests);
  }
  return cpu;
}

/** The CPU of runs that carry `cpu` (from `cpuPerRequest`), one column per run, one row per group. */
export function cpuRows(runs) {
  const groups = [...new Set(runs.flatMap((r) => Object.keys(r.cpu ?? {})))].sort();
  const total = (r) => Object.values(r.cpu ?? {}).reduce((a, b) => a + b, 0);
  return [
    ...groups.map((group) => ({ 'CPU µs per request': group, ...Object.fromEntries(runs.map((r) => [r.title, r.cpu?.[group] ?? 0])) })),
    { 'CPU µs per request': 'total', ...Object.fromEntries(runs.map((r) => [r.title, total(r)])) },
  ];
}
