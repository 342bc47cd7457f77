// What a personal access token costs over a session token at the gateway: the same page of contacts read with
// each, in one run (the token is looked up, limited, checked against the route and exchanged on every request).
//   npm run build && node bench/personal-tokens.js [--distributed] [--duration 10] [--connections 50]
// --distributed runs the separate processes against DATABASE_URL and NATS_URL (one replica of each service).
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../packages/kit/dist/testing/index.js';
import { importContacts, registerUser, startApp } from './lib/app.js';
import { measure, printLoadTable } from './lib/load.js';

const { values: args } = parseArgs({
  options: {
    distributed: { type: 'boolean', default: process.env.BENCH_DISTRIBUTED === '1' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
if (args.distributed && (!process.env.DATABASE_URL || !process.env.NATS_URL)) {
  console.error('--distributed needs DATABASE_URL and NATS_URL');
  process.exit(1);
}
const load = (url, title, headers) => measure(url, title, { connections: Number(args.connections), duration: Number(args.duration), headers });

const database = args.distributed ? await createTestDatabase(process.env.DATABASE_URL) : undefined;
// The per-token limit out of the way: this measures the exchange, not the 429s.
const app = await startApp({ distributed: args.distributed, databaseUrl: database?.url, replicas: 1, env: { RATE_LIMIT_TOKEN_MAX: '100000000' } });
try {
  console.log(`\nMi Asistente.IA ${args.distributed ? 'distributed (Postgres + JetStream, one replica each)' : 'embedded (one process, PGlite)'}: ${args.connections} connections, ${args.duration} s per run`);
  const authorization = await registerUser(app.url);
  if (!args.distributed) await importContacts(app.url, authorization, 1000);
  const response = await fetch(`${app.url}/api/auth/tokens`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['contacts:read'] }),
  });
  if (response.status !== 201) throw new Error(`token not created: ${response.status} ${await response.text()}`);
  const { token } = await response.json();
  const page = '/api/contacts?page=1&limit=10';
  const session = await load(`${app.url}${page}`, `GET ${page} (session token)`, { authorization });
  const personal = await load(`${app.url}${page}`, `GET ${page} (personal token)`, { authorization: `Bearer ${token}` });
  const again = process.env.BENCH_AGAIN ? await load(`${app.url}${page}`, `GET ${page} (session token, again)`, { authorization }) : undefined;
  printLoadTable([session, personal, ...(again ? [again] : [])], session);
  console.log(`\npersonal token: ${(personal.rps / session.rps).toFixed(2)}x the session's throughput; p50 +${(personal.p50 - session.p50).toFixed(1)} ms`);
} finally {
  await app.stop();
  if (database) await database.drop();
}
