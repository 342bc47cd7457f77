import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10000; };
const start = (file, env) => new Promise((res) => { const c = spawn('node', [file], { env: { ...process.env, ...env } }); c.stdout.once('data', () => res(c)); c.stderr.pipe(process.stderr); });
const upstream = await start('upstream.mjs', { PORT: '7101' });
const results = [];
for (let round = 0; round < 3; round++) for (const kind of ['reply-from', 'stream', 'buffer']) {
  const p = await start('proxy.mjs', { PORT: '7102', KIND: kind, UPSTREAM: 'http://127.0.0.1:7101' });
  await autocannon({ url: 'http://127.0.0.1:7102/api/contacts?page=1&limit=10', connections: 50, duration: 2 });
  const c0 = cpu(p.pid);
  const r = await autocannon({ url: 'http://127.0.0.1:7102/api/contacts?page=1&limit=10', connections: 50, duration: 8, headers: { authorization: 'Bearer x'.repeat(30) } });
  const us = (cpu(p.pid) - c0) / r.requests.total;
  console.log(kind, Math.round(r.requests.average), 'req/s', 'p99', r.latency.p99, 'proxy µs/req', us.toFixed(0), 'non2xx', r.non2xx);
  p.kill(); await new Promise((r) => p.once('exit', r));
}
upstream.kill();
