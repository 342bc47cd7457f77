// "Descargar mis datos" of an account with 100,000 contacts and 50,000 WhatsApp messages (200 chats): the time
// from the request to a stored ZIP, the download, and the serving process's peak memory while each runs, beside
// the reference measured in the same run: the plain contacts CSV export (GET /api/contacts/export) of the same
// 100,000 contacts. Memory flat means the peak above the idle process does not grow with the account.
//   node bench/account-export.js [--contacts 100000] [--messages 50000]        (embedded: one process, PGlite)
//   DATABASE_URL=postgres://… node bench/account-export.js [--heap 96]          (one process on PostgreSQL)
// Needs the build (npm run build). Linux: peak RSS is /proc/<pid>/status VmHWM, reset before each step.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createTestDatabase, readZip } from '../packages/kit/dist/testing/index.js';
import { registerUser, startApp } from './lib/app.js';
import { seedUserContacts, userIdOf } from './lib/seed-contacts.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({
  options: { contacts: { type: 'string', default: '100000' }, messages: { type: 'string', default: '50000' }, heap: { type: 'string' } },
});
const CONTACTS = Number(args.contacts);
const MESSAGES = Number(args.messages);
const CHATS = 200;
// On PostgreSQL the bench makes a database of its own and drops it at the end.
const database = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL) : undefined;
const databaseUrl = database?.url;

/** The owner's chats and messages, spread over the chats, one SQL text each (PGlite and PostgreSQL alike). */
function whatsappSql(userId) {
  return [
    `insert into whatsapp.chats (user_id, jid, name, last_at, last_text, last_direction)
     select '${userId}'::uuid, '346' || lpad(i::text, 8, '0') || '@s.whatsapp.net', 'Cliente ' || i, timestamptz '2026-03-01', 'Hola', 'incoming'
     from generate_series(1, ${CHATS}) as i`,
    `insert into whatsapp.messages (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, sent_at, status)
     select '${userId}'::uuid, c.ids[1 + i % ${CHATS}], 'bench-' || i, case when i % 2 = 0 then 'outgoing' else 'incoming' end, 'phone',
       'a@s.whatsapp.net', 'b@s.whatsapp.net', 'Mensaje número ' || i || ' con algo de texto de un cliente', timestamptz '2026-01-01' + i * interval '1 second', 'received'
     from generate_series(1, ${MESSAGES}) as i,
       (select array_agg(id order by jid) as ids from whatsapp.chats where user_id = '${userId}'::uuid) c`,
    'analyze whatsapp.messages',
  ];
}

const memory = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};
/** Resets the process's peak RSS to its current RSS (Linux: 5 > /proc/<pid>/clear_refs). */
const resetPeak = (pid) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** Runs `work` and answers its seconds and the serving process's RSS before and at its peak during it. */
async function measured(pid, work) {
  resetPeak(pid);
  const before = memory(pid).rss;
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  return { seconds, before, peak: memory(pid).peak, result };
}

async function drain(response) {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  return bytes;
}

async function downloadBuffer(response) {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  const chunks = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

// --heap MB caps the server's V8 old space: an export that holds nothing completes under a small cap (the peak
// RSS without it is V8 deferring collection while memory is plentiful, not memory kept).
let app = await startApp({ databaseUrl, env: args.heap ? { NODE_OPTIONS: `--max-old-space-size=${Number(args.heap)}` } : {} });
try {
  const authorization = await registerUser(app.url);
  let started = performance.now();
  app = await seedUserContacts(app, { distributed: Boolean(databaseUrl), databaseUrl }, authorization, CONTACTS, whatsappSql(userIdOf(authorization)));
  console.log(`\nseeded ${CONTACTS.toLocaleString('en')} contacts and ${MESSAGES.toLocaleString('en')} WhatsApp messages in ${((performance.now() - started) / 1000).toFixed(1)} s (${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'})`);
  const headers = { authorization };
  // Warm the process up (first queries, JIT) so the reference is not charged for it.
  await drain(await fetch(`${app.url}/api/contacts?limit=1`, { headers }));

  const reference = await measured(app.pid, async () => drain(await fetch(`${app.url}/api/contacts/export`, { headers })));

  const build = await measured(app.pid, async () => {
    const start = await fetch(`${app.url}/api/account/export`, { method: 'POST', headers });
    if (start.status !== 202) throw new Error(`POST /api/account/export answered ${start.status}`);
    const { id } = await start.json();
    for (;;) {
      const status = await (await fetch(`${app.url}/api/account/export/${id}`, { headers })).json();
      if (status.status === 'ready') return status;
      if (status.status === 'failed') throw new Error('the export failed (see bench/out/servers.log)');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  const download = await measured(app.pid, async () => downloadBuffer(await fetch(`${app.url}${build.result.downloadUrl}`, { headers })));

  // What the archive holds, read here (outside the measured process).
  const files = readZip(download.result);
  const csvRows = files.get('contactos/contactos.csv').toString('utf8').split('\r\n').filter(Boolean).length - 1;
  let messages = 0;
  for (const [name, data] of files) if (name.startsWith('whatsapp/chats/')) messages += JSON.parse(data.toString('utf8')).messages.length;
  if (csvRows !== CONTACTS || messages !== MESSAGES) throw new Error(`the ZIP holds ${csvRows} contacts and ${messages} messages`);

  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
  console.log(`\nthe ZIP: ${files.size} files, ${mb(download.result.length)} MB (${csvRows.toLocaleString('en')} contacts, ${messages.toLocaleString('en')} messages, CSV and JSON)\n`);
  const row = (what, m, bytes) => ({
    what,
    seconds: m.seconds.toFixed(2),
    MB: mb(bytes),
    'RSS before MB': m.before.toFixed(0),
    'peak RSS MB': m.peak.toFixed(0),
    'peak above idle MB': (m.peak - m.before).toFixed(0),
  });
  printTable([
    row('reference: contacts CSV export', reference, reference.result),
    row('account export: request → ZIP stored', build, build.result.size),
    row('account export: download', download, download.result.length),
  ]);
  console.log(`\ntarget: request to stored ZIP under 60 s → ${build.seconds < 60 ? 'met' : 'missed'} (${(build.seconds / reference.seconds).toFixed(1)}x the contacts CSV alone)`);
} finally {
  await app.stop();
  await database?.drop();
}
