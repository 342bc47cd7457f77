// Load held (issue 16): a mixed read/write workload through the gateway for
// --duration seconds at --connections, every answer counted, beside a bare
// Fastify hello world measured in the same run. Exits 1 on any error or
// non-2xx answer.
//   node bench/reliability-load.js [--duration 60] [--connections 50] [--distributed]
// --distributed (default when DATABASE_URL and NATS_URL are set) runs the
// separate processes of `npm run start:distributed` on a database and stream
// of their own; otherwise the embedded app (`npm start`). Needs `npm run build`.
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createTestDatabase } from '../packages/kit/dist/testing/index.js';
import { registerUser, startApp, startHelloWorld } from './lib/app.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    distributed: { type: 'boolean', default: Boolean(process.env.DATABASE_URL && process.env.NATS_URL) },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
if (args.distributed && (!process.env.DATABASE_URL || !process.env.NATS_URL)) {
  console.error('--distributed needs DATABASE_URL (a server to create a database on) and NATS_URL');
  process.exit(1);
}

/** What each connection repeats: list, create, search, one contact, the dashboard's recent activity. */
function mixedRequests(authorization) {
  let n = 0;
  const json = { authorization, 'content-type': 'application/json' };
  return [
    { method: 'GET', path: '/api/contacts?limit=20', headers: { authorization } },
    {
      method: 'POST',
      path: '/api/contacts',
      headers: json,
      setupRequest: (request) => {
        n++;
        return { ...request, body: JSON.stringify({ firstName: `Carga${n}`, lastName: 'Fiable', email: `carga${n}@ejemplo.es`, company: `Empresa ${n % 50}` }) };
      },
    },
    { method: 'GET', path: '/api/contacts?search=carga1&limit=20', headers: { authorization } },
    { method: 'GET', path: '/api/analytics/recent', headers: { authorization } },
  ];
}

async function run(title, options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  return {
    title,
    requests: result.requests.total,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    errors: result.errors + result.timeouts,
    'non-2xx': result.non2xx,
  };
}

const database = args.distributed ? await createTestDatabase(process.env.DATABASE_URL) : undefined;
const hello = await startHelloWorld();
const app = await startApp({ distributed: args.distributed, databaseUrl: database?.url });
let failed = false;
try {
  const topology = args.distributed ? 'distributed (gateway proxying to the services, PostgreSQL + JetStream)' : 'embedded (one process, PGlite)';
  console.log(`\nLoad held, ${topology}: ${CONNECTIONS} connections, ${DURATION} s each`);
  const authorization = await registerUser(app.url);
  const rows = [
    await run('bare Fastify hello world (reference)', { url: hello.url }),
    await run('gateway: list / create / search / recent activity', { url: app.url, requests: mixedRequests(authorization) }),
  ];
  printTable(rows);
  const [reference, gateway] = rows;
  console.log(`gateway at ${((gateway['req/s'] / reference['req/s']) * 100).toFixed(1)} % of bare Fastify's throughput`);
  failed = gateway.errors > 0 || gateway['non-2xx'] > 0;
  console.log(failed ? `FAILED: ${gateway.errors} errors, ${gateway['non-2xx']} non-2xx answers` : 'held: 0 errors, 0 non-2xx answers');
} finally {
  await app.stop();
  await hello.stop();
  await database?.drop();
}
process.exitCode = failed ? 1 : 0;
