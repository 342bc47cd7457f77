// Password hashing under a login burst (issue 17 item 6, issue 16 item 8): peak memory
// and /health latency of the embedded app with the hashing gate (HASH_CONCURRENCY=2,
// the default) beside the same app with hashing unbounded, in one run, at OWASP's
// strength (scrypt N=2^17, r=8). RSS is sampled from /proc every 10 ms during the burst.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode, stopAll, waitReady } from '../scripts/lib/processes.js';
import { freePort, LOG_FILE } from './lib/app.js';
import { median } from './lib/median.js';

const BURST = Number(process.env.BURST ?? 20);
const root = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function run(label, env) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'asistente-hash-'));
  const port = await freePort();
  const child = startNode(label, root('gateway/dist/main.js'), {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    NATS_URL: '',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SCRYPT_COST: '17',
    RATE_LIMIT_LOGIN_MAX: '100000',
    ...env,
  }, { output: (await import('node:fs')).createWriteStream(LOG_FILE, { flags: 'a' }) });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${base}/ready`, child, 120_000);
    const email = `hash-${randomBytes(4).toString('hex')}@ejemplo.es`;
    await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Banco', lastName: 'Pruebas', email, password: 'Contraseña-de-benchmark-1' }),
    });
    const before = rssMiB(child.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid))), 10);
    const health = [];
    let bursting = true;
    const probe = (async () => {
      while (bursting) {
        const started = performance.now();
        await fetch(`${base}/health`).then((r) => r.text());
        health.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: BURST }, () =>
        fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'incorrecta-123' }),
        }).then((r) => r.status),
      ),
    );
    const burstMs = performance.now() - started;
    bursting = false;
    clearInterval(sampler);
    await probe;
    const count = (code) => statuses.filter((s) => s === code).length;
    return { label, before, peak, burstMs, healthMedian: median(health), refused: count(503), answered: count(401), other: statuses.length - count(503) - count(401) };
  } finally {
    await stopAll([child]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const gated = await run('gate', { HASH_CONCURRENCY: '2', HASH_QUEUE_MAX: '32' });
const open = await run('open', { HASH_CONCURRENCY: '64', HASH_QUEUE_MAX: '10000' });
console.log(`\nPassword hashing, ${BURST} concurrent wrong-password logins, scrypt N=2^17 r=8 (embedded app)\n`);
console.log('| | peak RSS during the burst (MiB) | RSS before (MiB) | burst (ms) | /health median (ms) | 401 | 503 | other |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of [gated, open]) {
  const name = r === gated ? 'gate (2 at once, 32 queued)' : 'unbounded (reference)';
  console.log(`| ${name} | ${r.peak.toFixed(0)} | ${r.before.toFixed(0)} | ${r.burstMs.toFixed(0)} | ${r.healthMedian.toFixed(1)} | ${r.answered} | ${r.refused} | ${r.other} |`);
}
console.log(`\nmemory the burst added, gate/unbounded: ${(gated.peak - gated.before).toFixed(0)} / ${(open.peak - open.before).toFixed(0)} MiB`);
