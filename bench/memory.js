// `npm run bench:memory`: resident memory of the one-process install (`npm start`: gateway/dist/main.js
// mounting every service, PGlite in a fresh data directory) while idle, beside references started in the
// same run: a bare Fastify hello world, PGlite alone as its defaults open it, and the kit's embedded
// database alone (its worker, socket and settings). RSS and RssAnon are read from /proc/<pid>/status at
// fixed times after each process was spawned; "peak" is VmHWM at the last sample.
//   node bench/memory.js [--minutes 30] [--contacts 100000] [--messages 10000] [--service contacts,whatsapp | all]
// --minutes: a soak, sampled every 5 minutes up to that long (default: 30 s, 60 s and 120 s, then stop).
// --contacts, --messages: after the idle samples, some work (import N contacts, list and search them; link
//   a WhatsApp number and receive N messages from N/5 chats), sampled again 30 s and 60 s after it ended.
//   With --messages the app runs the browser tests' fake phone in place of WhatsApp's socket, which loads
//   Baileys at boot, as an install with a linked number does (its socket reconnects at start).
// --service: distributed processes alone (node services/<name>/dist/server.js; `gateway`: the gateway in
//   front of remote services), each on a migrated database of its own (created and dropped) and NATS:
//   needs DATABASE_URL and NATS_URL. `--service all` is every service and the gateway.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createTestDatabase } from '../packages/kit/dist/testing/index.js';
import { exited, startNode } from '../scripts/lib/processes.js';
import { freePort, importContacts, LOG_FILE, registerUser, startApp, startServer } from './lib/app.js';
import { FAKE_PHONE_MODULE, fakePhone } from './lib/fake-phone.js';
import { median } from './lib/median.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    contacts: { type: 'string', default: '0' },
    messages: { type: 'string', default: '0' },
    service: { type: 'string', default: '' },
  },
});
const CONTACTS = Number(args.contacts);
const MESSAGES = Number(args.messages);
const root = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));
const { ROUTES } = await import(root('gateway/dist/routing-table.js'));
const SERVICES = args.service === 'all' ? [...ROUTES.map((route) => route.name), 'gateway'] : args.service.split(',').map((s) => s.trim()).filter(Boolean);
/** Issue 37's targets: the one-process install idle after start and after a day's work, each distributed process idle. */
const EMBEDDED_TARGET_MB = 350;
const WORKED_TARGET_MB = 450;
const SERVICE_TARGET_MB = 120;

if (SERVICES.length > 0 && (!process.env.DATABASE_URL || !process.env.NATS_URL)) {
  console.error('--service needs DATABASE_URL and NATS_URL (a PostgreSQL server and NATS with JetStream)');
  process.exit(1);
}

/** Seconds after spawn at which every process is sampled while idle. */
const idleTimes = args.minutes
  ? [30, 60, ...Array.from({ length: Math.floor(Number(args.minutes) / 5) }, (_, i) => (i + 1) * 300)]
  : [30, 60, 120];

const MB = 1024;

/** VmRSS, RssAnon and VmHWM of `pid`, in MB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / MB, anon: kb('RssAnon') / MB, peak: kb('VmHWM') / MB };
}

const sleepUntil = (at) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
const fmt = (mb) => Math.round(mb).toLocaleString('en-US');

/** A distributed service alone: its own migrated database and stream, the env start-distributed gives it. */
async function startService(name) {
  const database = await createTestDatabase(process.env.DATABASE_URL);
  const migration = startNode(`migrate-${name}`, root('packages/kit/dist/migrate-cli.js'), { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  if ((await exited(migration)) !== 0) throw new Error(`migrating ${name}'s database failed (its output is in the terminal above)`);
  const suffix = randomBytes(4).toString('hex');
  const stream = `BENCH_${suffix}`;
  // The gateway in front of remote services: every service URL set (nothing answers there while idle), so it
  // is read at /health, which asks no service; a service answers /ready once it is fully up.
  const gateway = name === 'gateway';
  const serviceUrls = gateway ? Object.fromEntries(ROUTES.map((route) => [route.urlVariable, 'http://127.0.0.1:9'])) : {};
  const server = await startServer(name, root(gateway ? 'gateway/dist/main.js' : `services/${name}/dist/server.js`), {
    ...serviceUrls,
    DATABASE_URL: database.url,
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'warn',
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    NATS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: `bench${suffix}`,
  }, gateway ? '/health' : '/ready');
  return {
    ...server,
    async stop() {
      await server.stop();
      await database.drop();
      const nc = await connect({ servers: process.env.NATS_URL });
      await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
      await nc.close();
    },
  };
}

/** A reference process opening a fresh PGlite data directory of its own. */
async function startWithDataDir(name, script) {
  const dir = mkdtempSync(path.join(tmpdir(), 'asistente-bench-pg-'));
  const server = await startServer(name, root(script), { PGLITE_DIR: dir }, '/');
  return {
    ...server,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Started together, so every figure of one column is read at the same moment of the same machine; each
// process's clock starts when it is spawned (the app's "30 s" is 30 s after `npm start` would run it).
const phonePort = MESSAGES > 0 ? await freePort() : undefined;
const phoneEnv = phonePort ? { WHATSAPP_TEST_SOCKET_MODULE: FAKE_PHONE_MODULE, WHATSAPP_FAKE_CONTROL_PORT: String(phonePort) } : {};
const started = Date.now();
const entries = [
  [`npm start (embedded, no data${phonePort ? ', WhatsApp linked' : ''})`, startApp({ env: phoneEnv })],
  ['PGlite alone (its defaults)', startWithDataDir('pglite', 'bench/lib/pglite-alone.js')],
  ['embedded database alone (kit)', startWithDataDir('embedded-db', 'bench/lib/embedded-db-alone.js')],
  ['bare Fastify hello world', startServer('hello', root('bench/lib/hello-server.js'), {}, '/')],
  ...SERVICES.map((name) => [`${name === 'gateway' ? 'gateway' : `${name} service`} alone (distributed)`, startService(name)]),
];
const processes = [];
try {
  for (const [label, starting] of entries) processes.push({ label, proc: await starting, samples: [] });
} catch (error) {
  await Promise.allSettled(entries.map(([, starting]) => starting.then((proc) => proc.stop())));
  throw error;
}
const readyAfter = (Date.now() - started) / 1000;
console.log(`every process ready after ${readyAfter.toFixed(1)} s (servers' output: ${LOG_FILE})`);

const columns = [];
const sample = (label) => {
  columns.push(label);
  for (const p of processes) p.samples.push(memoryOf(p.proc.pid));
};

try {
  for (const seconds of idleTimes) {
    await sleepUntil(started + seconds * 1000);
    sample(seconds < 120 ? `${seconds} s` : `${seconds / 60} min`);
    console.log(`sampled at ${columns.at(-1)}: npm start ${fmt(processes[0].samples.at(-1).rss)} MB`);
  }
  if (CONTACTS > 0 || MESSAGES > 0) {
    const app = processes[0].proc;
    const authorization = await registerUser(app.url);
    if (CONTACTS > 0) {
      const seconds = await importContacts(app.url, authorization, CONTACTS);
      /** Milliseconds each GET took, one at a time: the memory settings must not cost the lists. */
      const timed = async (queries) => {
        const times = [];
        for (const query of queries) {
          const begun = performance.now();
          const response = await fetch(`${app.url}/api/contacts?${query}`, { headers: { authorization } });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`GET /api/contacts?${query} answered ${response.status}`);
          times.push(performance.now() - begun);
        }
        return median(times).toFixed(1);
      };
      const list = await timed(Array.from({ length: 100 }, (_, i) => `page=${i + 1}&limit=50`));
      const search = await timed(['garcia', 'empresa', 'a', '@gmail.com', 'zurbaran', '600'].flatMap((term) => Array(10).fill(`search=${encodeURIComponent(term)}`)));
      console.log(`imported ${CONTACTS.toLocaleString('en-US')} contacts in ${seconds.toFixed(1)} s; 100 pages listed (median ${list} ms), 60 searches (median ${search} ms)`);
    }
    if (MESSAGES > 0) {
      const phone = fakePhone(phonePort);
      const begun = performance.now();
      await phone.link(app.url, authorization);
      await phone.receive(app.url, authorization, MESSAGES, Math.max(1, Math.floor(MESSAGES / 5)));
      console.log(`linked WhatsApp and stored ${MESSAGES.toLocaleString('en-US')} incoming messages in ${((performance.now() - begun) / 1000).toFixed(1)} s`);
    }
    const workEnded = Date.now();
    for (const after of [30, 60]) {
      await sleepUntil(workEnded + after * 1000);
      sample(`${after} s after work`);
    }
  }
} finally {
  await Promise.allSettled(processes.map((p) => p.proc.stop()));
}

const work = [CONTACTS > 0 && `${CONTACTS.toLocaleString('en-US')} contacts imported, listed, searched`, MESSAGES > 0 && `${MESSAGES.toLocaleString('en-US')} WhatsApp messages received`].filter(Boolean);
console.log(`\nResident memory, MB: RSS (RssAnon); ${work.length ? `work = ${work.join('; ')}` : 'idle'}`);
printTable(
  processes.map((p) => ({
    process: p.label,
    ...Object.fromEntries(columns.map((column, i) => [column, `${fmt(p.samples[i].rss)} (${fmt(p.samples[i].anon)})`])),
    peak: fmt(p.samples.at(-1).peak),
  })),
);
const app = processes[0];
/** The targets are judged on the worst sample: the highest idle one, the highest after the work. */
const verdict = (samples, target) => {
  const worst = Math.max(...samples.map((sample) => sample.rss));
  return `${fmt(worst)} MB at most (target <= ${target}: ${worst <= target ? 'met' : 'missed'})`;
};
const IDLE_SAMPLES = idleTimes.length;
console.log(`\nnpm start idle: ${verdict(app.samples.slice(0, IDLE_SAMPLES), EMBEDDED_TARGET_MB)}`);
if (columns.length > IDLE_SAMPLES) console.log(`npm start after the work: ${verdict(app.samples.slice(IDLE_SAMPLES), WORKED_TARGET_MB)}`);
for (const p of processes.filter((entry) => entry.label.includes('(distributed)'))) {
  console.log(`${p.label} idle: ${verdict(p.samples.slice(0, IDLE_SAMPLES), SERVICE_TARGET_MB)}`);
}
