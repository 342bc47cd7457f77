// The daily retention job erasing 100,000 old WhatsApp messages of one owner (another owner's 50,000 and the
// owner's 10,000 recent ones stay), in batches of 500, beside the reference measured in the same run: the
// same rows erased by one DELETE. While each runs, a second connection keeps marking random old messages
// read (what a late WhatsApp receipt does): its longest wait is the longest lock the erasure made it wait on.
//   DATABASE_URL=postgres://… node bench/retention.js [--rows 100000]
// Needs the build (npm run build): it runs the kit's job and the whatsapp service's steps from dist/.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createLogger, eraseOlderData, migrate, PeriodicJob } from '../packages/kit/dist/index.js';
import { createTestDatabase } from '../packages/kit/dist/testing/index.js';
import { WHATSAPP_RETENTION_STEPS } from '../services/whatsapp/dist/domain/retention.repository.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '100000' } } });
const ROWS = Number(args.rows);
const DAY = 24 * 60 * 60 * 1000;

if (!process.env.DATABASE_URL) {
  console.error('bench/retention.js needs DATABASE_URL (a PostgreSQL server to create a database on)');
  process.exit(1);
}

const log = createLogger('silent', 'bench');
const database = await createTestDatabase(process.env.DATABASE_URL);
await migrate(database.url, log);
const sql = postgres(database.url, { max: 2, onnotice: () => {}, transform: postgres.camel });
const receipts = postgres(database.url, { max: 1, onnotice: () => {} });
const [owner, other] = [randomUUID(), randomUUID()];
const now = new Date();

/** The owner's old and recent messages over 200 chats, and another owner's old ones (kept forever). */
async function load() {
  await sql`truncate whatsapp.messages, whatsapp.chats`;
  for (const user of [owner, other]) {
    await sql`
      insert into whatsapp.chats (user_id, jid, name, last_at, last_text, last_direction)
      select ${user}, 'c' || i || '@s.whatsapp.net', 'Cliente ' || i, ${now}::timestamptz - interval '40 days', 'Hola', 'incoming'
      from generate_series(1, 200) as i`;
  }
  const messages = (user, count, daysOld, prefix) => sql`
    insert into whatsapp.messages (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, sent_at, status)
    select ${user}, c.ids[1 + i % 200], ${prefix} || i, 'incoming', 'phone', 'a@s.whatsapp.net', 'b@s.whatsapp.net',
           'Mensaje número ' || i || ' con algo de texto de un cliente', ${now}::timestamptz - ${daysOld} * interval '1 day' - i * interval '1 second', 'received'
    from generate_series(1, ${count}) as i,
         (select array_agg(id order by jid) as ids from whatsapp.chats where user_id = ${user}) c`;
  await messages(owner, ROWS, 40, 'old-');
  await messages(owner, ROWS / 10, 5, 'new-');
  await messages(other, ROWS / 2, 40, 'other-');
  await sql`analyze whatsapp.messages`;
}

/** Marks random old messages of the owner read until `done`, on its own connection; answers the longest wait. */
async function receiptsDuring(done) {
  let longest = 0;
  let count = 0;
  while (!done.value) {
    const started = performance.now();
    await receipts`update whatsapp.messages set status = 'read' where user_id = ${owner} and wa_id = ${`old-${1 + Math.floor(Math.random() * ROWS)}`}`;
    longest = Math.max(longest, performance.now() - started);
    count++;
  }
  return { longest, count };
}

async function measured(work) {
  const done = { value: false };
  const watcher = receiptsDuring(done);
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  done.value = true;
  return { ms, result, receipts: await watcher };
}

const remaining = async () => {
  const [row] = await sql`
    select count(*) filter (where user_id = ${owner} and sent_at < ${new Date(now.getTime() - 30 * DAY)}) as old,
           count(*) filter (where user_id = ${owner} and sent_at >= ${new Date(now.getTime() - 30 * DAY)}) as recent,
           count(*) filter (where user_id = ${other}) as other
    from whatsapp.messages`;
  return `${row.old} old, ${row.recent} recent, ${row.other} of the other owner`;
};

try {
  await sql`insert into whatsapp.retention (user_id, days, changed_at) values (${owner}, 30, now()), (${other}, null, now())`;

  let started = performance.now();
  await load();
  console.log(`\nloaded ${(ROWS * 1.6).toLocaleString('en')} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const job = new PeriodicJob(sql, { name: 'bench.whatsapp.retention', log, now: () => now }, async (run) => {
    job.report = await eraseOlderData(sql, 'whatsapp.retention', run, WHATSAPP_RETENTION_STEPS);
  });
  const batched = await measured(() => job.runOnce());
  const { report } = job;
  const batchedLeft = await remaining();

  started = performance.now();
  await load();
  const single = await measured(() =>
    sql`delete from whatsapp.messages where user_id = ${owner} and sent_at < ${new Date(now.getTime() - 30 * DAY)} and status <> 'pending'`,
  );
  const singleLeft = await remaining();

  console.log(`\nerasing ${ROWS.toLocaleString('en')} messages older than 30 days (PostgreSQL, same run)`);
  printTable([
    {
      how: 'retention job (batches of 500)',
      erased: report.erased.messages,
      'total ms': batched.ms.toFixed(0),
      statements: report.statements,
      'longest statement ms': report.longestStatementMs.toFixed(1),
      'receipt longest wait ms': batched.receipts.longest.toFixed(1),
      receipts: batched.receipts.count,
    },
    {
      how: 'reference: one DELETE',
      erased: single.result.count,
      'total ms': single.ms.toFixed(0),
      statements: 1,
      'longest statement ms': single.ms.toFixed(1),
      'receipt longest wait ms': single.receipts.longest.toFixed(1),
      receipts: single.receipts.count,
    },
  ]);
  console.log(`\nleft after the job: ${batchedLeft}; after the reference: ${singleLeft}`);
  console.log(
    `job / reference: total ${(batched.ms / single.ms).toFixed(2)}x; longest statement ${(report.longestStatementMs / single.ms).toFixed(3)}x; ` +
      `longest receipt wait ${(batched.receipts.longest / single.receipts.longest).toFixed(3)}x`,
  );
} finally {
  await receipts.end();
  await sql.end();
  await database.drop();
}
