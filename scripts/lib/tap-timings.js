import { createInterface } from 'node:readline';

/**
 * Reads tap's plain TAP output (`--reporter=tap`) as it comes: one row per test file, with its wall time
 * (tap's `# time=` on the file's own line), its assertions (leaf points, as tap's closing total counts
 * them: a subtest's own line carries `# time=`, an assertion's does not), its CPU time (`cpu-report.js`'s
 * comment) and whether it passed.
 * @param {NodeJS.ReadableStream} stream
 * @returns {Promise<{ file: string, seconds: number, cpuSeconds: number, assertions: number, failed: number, ok: boolean }[]>}
 */
export async function parseTapStream(stream) {
  const files = [];
  let assertions = 0;
  let failed = 0;
  let cpu = 0;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    const top = /^(not )?ok \d+ - (\S+)(?: # time=([\d.]+)ms)?/.exec(line);
    if (top) {
      files.push({ file: top[2], seconds: Number(top[3] ?? 0) / 1000, cpuSeconds: cpu / 1000, assertions, failed, ok: !top[1] });
      assertions = 0;
      failed = 0;
      cpu = 0;
      continue;
    }
    const used = /^\s+# cpu=(\d+)ms$/.exec(line);
    if (used) cpu += Number(used[1]);
    const point = /^\s+(not )?ok \d+ /.exec(line);
    if (point && !/ # time=[\d.]+m?s\s*$/.test(line)) {
      assertions++;
      if (point[1] && !/# (TODO|SKIP)/i.test(line)) failed++;
    }
  }
  return files;
}

const pad = (text, width) => String(text).padStart(width);

/**
 * A pass as a table: files slowest first (at most `top`), then the totals.
 * @param {{ pass: string, files: Awaited<ReturnType<typeof parseTapStream>>, seconds: number, green: boolean }} result
 * @param {number} top
 */
export function summarise({ pass, files, seconds, green }, top = Infinity) {
  const sorted = [...files].sort((a, b) => b.seconds - a.seconds);
  const assertions = files.reduce((sum, f) => sum + f.assertions, 0);
  const fileSeconds = files.reduce((sum, f) => sum + f.seconds, 0);
  const lines = [`\n== ${pass}: ${files.length} files, ${assertions} assertions, ${seconds.toFixed(0)} s wall (${fileSeconds.toFixed(0)} s summed over files), ${green ? 'green' : 'RED'}`];
  const cpu = files.reduce((sum, f) => sum + f.cpuSeconds, 0);
  lines.push(`CPU of the test processes: ${cpu.toFixed(0)} s (their children, such as a spawned gateway, not counted)`);
  lines.push(`${pad('seconds', 8)} ${pad('cpu s', 8)} ${pad('asserts', 8)}  file`);
  for (const row of sorted.slice(0, top)) {
    lines.push(`${pad(row.seconds.toFixed(1), 8)} ${pad(row.cpuSeconds.toFixed(1), 8)} ${pad(row.assertions, 8)}  ${row.file}${row.ok ? '' : `  (FAILED: ${row.failed})`}`);
  }
  if (sorted.length > top) lines.push(`     ... ${sorted.length - top} more`);
  return lines.join('\n');
}
