import autocannon from 'autocannon';
import { cpuPerRequest, cpuSnapshot } from './cpu-by-process.js';
import { printTable } from './table.js';

/** Unmeasured load before each measured run: the servers' JIT, pools and caches warm, as in steady use. */
export const WARM_UP_SECONDS = 2;

/**
 * `connections` clients hammering GET `url` for `duration` seconds, after `WARM_UP_SECONDS` of the same
 * load that is not counted; any error or non-2xx answer fails the benchmark, since a fast error is not a
 * figure. With `cpu`, the run also says what each process group spent per request (`cpuPerRequest`; `cpu:
 * { database }` counts only that database's PostgreSQL backends);
 * `freshHeaders` adds headers made anew for each request (a proof that expires within the run).
 */
export async function measure(url, title, { connections, duration, headers = {}, cpu = false, freshHeaders }) {
  const requests = freshHeaders ? [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...freshHeaders() } }) }] : undefined;
  const options = { url, connections, headers, ...(requests ? { requests } : {}) };
  const warmUp = await autocannon({ ...options, duration: WARM_UP_SECONDS });
  if (warmUp.errors || warmUp.non2xx) throw new Error(`${title} (warm-up): ${warmUp.errors} errors, ${warmUp.non2xx} non-2xx answers`);
  const database = typeof cpu === 'object' ? cpu.database : undefined;
  const before = cpu ? cpuSnapshot(database) : undefined;
  const result = await autocannon({ ...options, duration });
  if (result.errors || result.non2xx) throw new Error(`${title}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  const run = { title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
  return before ? { ...run, cpu: cpuPerRequest(before, cpuSnapshot(database), result.requests.total) } : run;
}

/**
 * The runs of `measure` as a table, each beside the reference run of the same benchmark (hello world) and,
 * when given, beside `floor` (the same answer made with no hop).
 */
export function printLoadTable(runs, reference = runs[0], floor = undefined) {
  printTable(
    runs.map((r) => ({
      endpoint: r.title,
      'req/s': Math.round(r.rps).toLocaleString('en'),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'vs hello': `${(r.rps / reference.rps).toFixed(2)}x`,
      ...(floor ? { 'vs leaner floor': `${(r.rps / floor.rps).toFixed(2)}x` } : {}),
    })),
  );
}
