// `npm run bench:analytics`: on real PostgreSQL + NATS JetStream,
//  (a) freshness: events committed to an outbox at a steady rate -> visible in
//      GET /api/analytics/dashboard (p50/p95), through relay, JetStream and the
//      durable consumer of the running app;
//  (b) GET /api/analytics/dashboard with 1M events in the user's history
//      (autocannon) beside a bare Fastify hello world measured in the same run.
//   node bench/analytics.js [--rate 1000] [--seconds 10] [--history 1000000] [--duration 10] [--connections 10]
// --distributed runs the separate processes of `npm run start:distributed`
// (gateway, each service, analytics' own consumer) instead of the one-process
// app, at 5,000 events/s unless --rate says otherwise, with the issue 16 target
// (freshness p95 < 100 ms); --history 0 skips (b).
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createEvent } from '../packages/kit/dist/index.js';
import { rebuildRollups } from '../services/analytics/dist/app.js';
import { registerUser, startHelloWorld } from './lib/app.js';
import { startEventStack } from './lib/event-stack.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({
  options: {
    distributed: { type: 'boolean', default: false },
    rate: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    history: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const DISTRIBUTED = args.distributed;
const RATE = Number(args.rate ?? (DISTRIBUTED ? 5000 : 1000));
const SECONDS = Number(args.seconds);
const HISTORY = Number(args.history);
const TICK_MS = 20;
// Issue 16 asks < 100 ms at 5,000 events/s distributed; the one-process app kept its earlier 1 s target.
const FRESHNESS_P95_TARGET_MS = DISTRIBUTED ? 100 : 1000;
const QUERY_P99_TARGET_MS = 20;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// This process plays a service writing events: its relay publishes them to the app's stream.
const stack = await startEventStack({ distributed: DISTRIBUTED });
const { baseUrl, producer } = stack;
const hello = await startHelloWorld();

try {
  await stack.ready();
  const authorization = await registerUser(baseUrl);
  const userId = JSON.parse(Buffer.from(authorization.split('.')[1], 'base64url').toString()).sub;
  const dashboard = async () =>
    (await fetch(`${baseUrl}/api/analytics/dashboard?period=30d`, { headers: { authorization } })).json();

  // (a) freshness
  const outbox = producer.outbox('platform');
  const committed = [];
  const seen = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const { totalEmails } = await dashboard();
      const at = performance.now();
      while (seen.length < totalEmails) seen.push(at);
      await sleep(10);
    }
  })();
  const perTick = Math.round((RATE * TICK_MS) / 1000);
  const started = performance.now();
  for (let tick = 0; tick < (SECONDS * 1000) / TICK_MS; tick++) {
    const batch = Array.from({ length: perTick }, () =>
      createEvent('email.message.sent', userId, { messageId: randomUUID(), provider: 'gmail' }),
    );
    await producer.db.sql.begin((tx) => outbox.append(tx, batch));
    const at = performance.now();
    for (let i = 0; i < batch.length; i++) committed.push(at);
    const next = started + (tick + 1) * TICK_MS;
    if (next > performance.now()) await sleep(next - performance.now());
  }
  const achieved = committed.length / ((performance.now() - started) / 1000);
  const deadline = Date.now() + 60_000;
  while (seen.length < committed.length && Date.now() < deadline) await sleep(50);
  polling = false;
  await poller;
  const lags = committed.map((at, i) => (seen[i] ?? Infinity) - at).sort((a, b) => a - b);
  const p50 = percentile(lags, 50);
  const p95 = percentile(lags, 95);

  const topology = DISTRIBUTED ? 'distributed: gateway and services as processes' : 'one process';
  console.log(`\nAnalytics on PostgreSQL + JetStream, ${topology} (${new Date().toISOString().slice(0, 10)})`);
  console.log(`\n(a) freshness: ${committed.length.toLocaleString('en')} events at ${Math.round(achieved)} events/s (target rate ${RATE})`);
  printTable([{ measure: 'commit -> visible in /api/analytics/dashboard', 'p50 ms': Math.round(p50), 'p95 ms': Math.round(p95), 'max ms': Math.round(lags.at(-1)) }]);
  console.log(`freshness p95 ${Math.round(p95)} ms (target < ${FRESHNESS_P95_TARGET_MS} ms): ${p95 < FRESHNESS_P95_TARGET_MS ? 'met' : 'MISSED'}`);
  // --history 0: freshness only.
  if (HISTORY > 0) {
    // (b) query latency with a long history: 1M events recorded, rollups rebuilt from them.
    const historyStarted = performance.now();
    await producer.db.sql`
      insert into analytics.events (id, user_id, type, occurred_at, data)
      select gen_random_uuid(), ${userId},
        (array['email.message.received', 'whatsapp.message.received', 'teams.message.sent', 'calendar.event.created', 'contacts.contact.created'])[i % 5 + 1],
        now() - random() * interval '365 days',
        case i % 5
          when 0 then '{"messageId":"h","provider":"imap"}'::jsonb
          when 1 then jsonb_build_object('messageId', 'h', 'chatId', 'c' || (i % 300))
          when 2 then '{"messageId":"h","channelId":"general"}'::jsonb
          when 3 then '{"eventId":"h","source":"google"}'::jsonb
          else jsonb_build_object('contactId', gen_random_uuid(), 'hasEmail', true)
        end
      from generate_series(1, ${HISTORY}) as i`;
    const rebuild = await rebuildRollups(producer.db.sql);
    const historySeconds = (performance.now() - historyStarted) / 1000;
    const [{ n: hourlyRows }] = await producer.db.sql`select count(*) as n from analytics.hourly where user_id = ${userId}`;

    const load = async (url, title, connections, headers = {}) => {
      const r = await autocannon({ url, connections, duration: Number(args.duration), headers });
      if (r.errors || r.non2xx) throw new Error(`${title}: ${r.errors} errors, ${r.non2xx} non-2xx`);
      return { title, connections, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
    };
    const many = Number(args.connections);
    const dashboardUrl = `${baseUrl}/api/analytics/dashboard?period=30d`;
    // One connection: what a person opening the dashboard waits; N: the same under concurrent users.
    const runs = [
      await load(hello.url, 'hello world (bare Fastify)', 1),
      await load(dashboardUrl, 'GET /api/analytics/dashboard?period=30d', 1, { authorization }),
      await load(`${baseUrl}/api/analytics/activity?period=1y`, 'GET /api/analytics/activity?period=1y', 1, { authorization }),
      await load(hello.url, 'hello world (bare Fastify)', many),
      await load(dashboardUrl, 'GET /api/analytics/dashboard?period=30d', many, { authorization }),
    ];

    console.log(`\n(b) history: ${rebuild.events.toLocaleString('en')} events -> ${Number(hourlyRows).toLocaleString('en')} hourly rows for the user (loaded and rebuilt in ${historySeconds.toFixed(1)} s)`);
    printTable(
      runs.map((r) => {
        const reference = runs.find((h) => h.connections === r.connections);
        return { endpoint: r.title, conns: r.connections, 'req/s': Math.round(r.rps).toLocaleString('en'), 'p50 ms': r.p50, 'p99 ms': r.p99, 'vs hello': `${(r.rps / reference.rps).toFixed(2)}x` };
      }),
    );
    const query = runs[1];
    console.log(`dashboard p99 ${query.p99} ms at 1 connection (target < ${QUERY_P99_TARGET_MS} ms): ${query.p99 < QUERY_P99_TARGET_MS ? 'met' : 'MISSED'}; ${runs[4].p99} ms at ${many} connections`);
  }
} finally {
  await hello.stop();
  await stack.close();
}
