// `npm run bench:search`: search throughput and latency on a large contact
// list of one user, beside the list's first page and a bare Fastify hello
// world measured in the same run.
//   node bench/contacts-search.js [--distributed] [--contacts 1000000] [--duration 10] [--connections 50]
// The contacts are seeded in SQL (generate_series; indexes built after), not
// imported: a million rows in about a minute. bench/contacts-import.js
// measures the import.
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../packages/kit/dist/testing/index.js';
import { registerUser, startApp, startHelloWorld } from './lib/app.js';
import { RARE_TERM } from './lib/csv.js';
import { seedUserContacts } from './lib/seed-contacts.js';
import { printTable } from './lib/table.js';
import { measure } from './lib/load.js';

const { values: args } = parseArgs({
  options: {
    distributed: { type: 'boolean', default: process.env.BENCH_DISTRIBUTED === '1' },
    contacts: { type: 'string', default: '200000' },
    rows: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    samples: { type: 'string', default: '200' },
  },
});
const ROWS = Number(args.rows ?? args.contacts);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const SAMPLES = Number(args.samples);
/** From issue 14: search p99 under load, search vs list throughput, a single search's p95. */
const TARGETS = { p99: 100, ratio: 0.25, singleP95: 25 };

/**
 * Terms the issue names: rare, selective, everything-matching (one letter, a
 * word, a mail domain), a common name, nothing-matching (short and long), a
 * formatted phone.
 */
const TERMS = [RARE_TERM, 'contacto4242', 'a', 'empresa', '@gmail.com', 'garcia', 'zq', 'ju', 'noexiste-xyz', '600 00 42 41'];

if (args.distributed && (!process.env.DATABASE_URL || !process.env.NATS_URL)) {
  console.error('--distributed needs DATABASE_URL (a server to create a database on) and NATS_URL');
  process.exit(1);
}

const load = (url, title, headers) => measure(url, title, { connections: CONNECTIONS, duration: DURATION, headers });

/**
 * One request at a time: the latency a person typing sees, without queueing
 * behind others. `before` runs untimed ahead of each sample.
 */
async function single(url, authorization, before = async () => {}) {
  const times = [];
  for (let i = 0; i < SAMPLES; i++) {
    await before();
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length * 0.95)];
}

const database = args.distributed ? await createTestDatabase(process.env.DATABASE_URL) : undefined;
const hello = await startHelloWorld();
let app = await startApp({ distributed: args.distributed, databaseUrl: database?.url });
try {
  const topology = args.distributed ? 'distributed (Postgres + JetStream, gateway proxying)' : 'embedded (one process, PGlite)';
  console.log(`\nMi Asistente.IA ${topology}: ${CONNECTIONS} connections, ${DURATION} s per run`);
  const authorization = await registerUser(app.url);
  const started = performance.now();
  app = await seedUserContacts(app, { distributed: args.distributed, databaseUrl: database?.url }, authorization, ROWS);
  console.log(`seeded ${ROWS.toLocaleString('en')} contacts of one user in SQL in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

  const auth = { authorization };
  const searchUrl = (term) => `${app.url}/api/contacts?search=${encodeURIComponent(term)}`;
  const runs = [
    await load(hello.url, 'hello world (bare Fastify)'),
    await load(`${app.url}/api/contacts?page=1&limit=10`, 'GET /api/contacts?page=1&limit=10', auth),
  ];
  // A search's total is remembered until the user's contacts change; editing a
  // contact before each sample makes every one count its total again.
  const [edited] = (await (await fetch(`${app.url}/api/contacts?limit=1`, { headers: auth })).json()).contacts;
  let edits = 0;
  const edit = async () => {
    const { firstName, lastName, email, phone, company, tags } = edited;
    const body = { firstName, lastName, email, phone, company, tags, notes: `edición ${++edits}` };
    const response = await fetch(`${app.url}/api/contacts/${edited.id}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (response.status !== 200) throw new Error(`PUT answered ${response.status}: ${await response.text()}`);
  };
  const singles = new Map();
  const afterWrite = new Map();
  for (const term of TERMS) {
    const response = await fetch(searchUrl(term), { headers: auth });
    const body = await response.json();
    runs.push({ ...(await load(searchUrl(term), `search=${term}`, auth)), total: `${body.totalCapped ? 'más de ' : ''}${body.total}` });
    singles.set(term, await single(searchUrl(term), authorization));
    afterWrite.set(term, await single(searchUrl(term), authorization, edit));
  }
  const [baseline, list] = runs;
  printTable(
    runs.map((r) => ({
      endpoint: r.title,
      total: r.total ?? '',
      'req/s': Math.round(r.rps).toLocaleString('en'),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'vs hello': `${(r.rps / baseline.rps).toFixed(2)}x`,
      'vs list': `${(r.rps / list.rps).toFixed(2)}x`,
      'single p95 ms': singles.has(r.title.slice(7)) ? singles.get(r.title.slice(7)).toFixed(1) : '',
      'after a write p95': afterWrite.has(r.title.slice(7)) ? afterWrite.get(r.title.slice(7)).toFixed(1) : '',
    })),
  );
  const searches = runs.slice(2);
  const worstP99 = Math.max(...searches.map((r) => r.p99));
  const worstRatio = Math.min(...searches.map((r) => r.rps / list.rps));
  const worstSingle = Math.max(...singles.values(), ...afterWrite.values());
  const verdict = (ok) => (ok ? 'met' : 'MISSED');
  console.log(`\nworst search p99 ${worstP99} ms (target < ${TARGETS.p99} ms): ${verdict(worstP99 < TARGETS.p99)}`);
  console.log(`worst search vs list ${worstRatio.toFixed(2)}x (target >= ${TARGETS.ratio}x): ${verdict(worstRatio >= TARGETS.ratio)}`);
  console.log(`worst single search p95 ${worstSingle.toFixed(1)} ms (target < ${TARGETS.singleP95} ms): ${verdict(worstSingle < TARGETS.singleP95)}`);
} finally {
  await app.stop();
  await hello.stop();
  if (database) await database.drop();
}
