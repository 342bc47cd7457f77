// `npm run bench:webhooks`: outbound webhook delivery latency on real PostgreSQL + NATS JetStream.
// Events are committed to an outbox at a steady rate (contact.created, one user, one endpoint); a local
// receiver on loopback (allowed through ALLOWED_PRIVATE_ADDRESSES) notes when each signed delivery arrives:
// commit -> relay -> JetStream -> the webhooks consumer's delivery row -> the dispatcher's signed POST.
// Beside it, in the same run, the floor: the same receiver POSTed directly from this process at the same rate.
//   node bench/webhooks.js [--rate 200] [--seconds 10] [--distributed] [--replicas 2]
// --distributed runs `npm run start:distributed`'s processes (REPLICAS of each service, default 1) instead
// of every service in one process.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { createEvent } from '../packages/kit/dist/index.js';
import { registerUser } from './lib/app.js';
import { startEventStack } from './lib/event-stack.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({
  options: {
    distributed: { type: 'boolean', default: false },
    replicas: { type: 'string' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
  },
});
const DISTRIBUTED = args.distributed;
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const TICK_MS = 20;
const P95_TARGET_MS = 1000;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The receiver: notes each arrival by the payload's contact id (deliveries) or the request's own id (floor). */
const arrivals = new Map();
let badSignatures = 0;
let duplicates = 0;
let verifier;
const receiver = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const at = performance.now();
    response.statusCode = 204;
    response.end();
    if (request.url === '/floor') return arrivals.set(request.headers['x-floor'], at);
    try {
      verifier?.verify(body, request.headers);
    } catch {
      badSignatures++;
    }
    const key = JSON.parse(body).data?.contactId;
    if (key && arrivals.has(key)) duplicates++;
    else if (key) arrivals.set(key, at);
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const receiverUrl = `http://127.0.0.1:${receiver.address().port}`;

// This process plays the contacts service: its relay publishes what it commits to the app's stream.
const stack = await startEventStack({ distributed: DISTRIBUTED, replicas: args.replicas, env: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const { baseUrl, producer } = stack;

/**
 * Calls `send` with fresh keys at RATE per second for SECONDS and measures, per key, from `stamp` (before the
 * call, or once it returned: a commit) to its arrival at the receiver.
 */
async function steady(send, stamp) {
  const sent = new Map();
  const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
  const started = performance.now();
  for (let tick = 0; tick < (SECONDS * 1000) / TICK_MS; tick++) {
    const keys = Array.from({ length: perTick }, () => randomUUID());
    const before = performance.now();
    await send(keys);
    const at = stamp === 'before' ? before : performance.now();
    for (const key of keys) sent.set(key, at);
    const next = started + (tick + 1) * TICK_MS;
    if (next > performance.now()) await sleep(next - performance.now());
  }
  const achieved = sent.size / ((performance.now() - started) / 1000);
  const deadline = Date.now() + 120_000;
  while ([...sent.keys()].some((k) => !arrivals.has(k)) && Date.now() < deadline) await sleep(50);
  const lags = [...sent].map(([key, at]) => (arrivals.get(key) ?? Infinity) - at).sort((a, b) => a - b);
  return { count: sent.size, achieved, p50: percentile(lags, 50), p95: percentile(lags, 95), p99: percentile(lags, 99), max: lags.at(-1), lost: lags.filter((l) => l === Infinity).length };
}

try {
  await stack.ready();
  const authorization = await registerUser(baseUrl);
  const userId = JSON.parse(Buffer.from(authorization.split('.')[1], 'base64url').toString()).sub;
  const created = await fetch(`${baseUrl}/api/webhooks`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiverUrl}/hook`, events: ['contact.created'], description: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`POST /api/webhooks answered ${created.status}: ${await created.text()}`);
  verifier = new Webhook((await created.json()).secret);

  // The floor: this process POSTs the receiver directly (a kept-alive connection, like the dispatcher's).
  const agent = new http.Agent({ keepAlive: true });
  const floor = await steady(async (keys) => {
    await Promise.all(
      keys.map(
        (key) =>
          new Promise((resolve, reject) => {
            const request = http.request(`${receiverUrl}/floor`, { method: 'POST', agent, headers: { 'x-floor': key, 'content-type': 'application/json' } }, (r) => {
              r.resume();
              r.on('end', resolve);
            });
            request.on('error', reject);
            request.end('{}');
          }),
      ),
    );
  }, 'before');
  const outbox = producer.outbox('platform');
  const webhooks = await steady(async (keys) => {
    const events = keys.map((contactId) => createEvent('contacts.contact.created', userId, { contactId, hasEmail: false }));
    await producer.db.sql.begin((tx) => outbox.append(tx, events));
  }, 'committed');

  const topology = DISTRIBUTED ? `distributed: gateway and services as processes${args.replicas ? `, ${args.replicas} replicas each` : ''}` : 'one process';
  console.log(`\nWebhook delivery on PostgreSQL + JetStream, ${topology} (${new Date().toISOString().slice(0, 10)})`);
  console.log(`${webhooks.count.toLocaleString('en')} events at ${Math.round(webhooks.achieved)} events/s (target rate ${RATE}); ${badSignatures} bad signatures; ${webhooks.lost} not delivered; ${duplicates} delivered twice`);
  printTable([
    { measure: 'commit -> signed delivery at the receiver', 'p50 ms': Math.round(webhooks.p50), 'p95 ms': Math.round(webhooks.p95), 'p99 ms': Math.round(webhooks.p99), 'max ms': Math.round(webhooks.max) },
    { measure: 'floor: direct POST to the receiver', 'p50 ms': floor.p50.toFixed(1), 'p95 ms': floor.p95.toFixed(1), 'p99 ms': floor.p99.toFixed(1), 'max ms': floor.max.toFixed(1) },
  ]);
  console.log(`delivery p95 ${Math.round(webhooks.p95)} ms (target < ${P95_TARGET_MS} ms): ${webhooks.p95 < P95_TARGET_MS && webhooks.lost === 0 && badSignatures === 0 && duplicates === 0 ? 'met' : 'MISSED'}`);
} finally {
  receiver.closeAllConnections();
  receiver.close();
  await stack.close();
}
