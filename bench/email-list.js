// `GET /api/emails` on a mailbox of 100,000 stored messages, beside a bare Fastify hello world measured in
// the same run (goal from the issue: p99 < 25 ms at 50 connections).
//   DATABASE_URL=postgres://… node bench/email-list.js [--rows 100000] [--duration 10] [--connections 50]
// Runs `npm start`'s server (gateway/dist, built) on a database of its own created on DATABASE_URL, so the
// benchmark can load the messages with one INSERT … SELECT.
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createTestDatabase } from '../packages/kit/dist/testing/index.js';
import { registerUser, startApp, startHelloWorld } from './lib/app.js';
import { measure, printLoadTable } from './lib/load.js';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
const ROWS = Number(args.rows);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const LIST_P99_TARGET_MS = 25;

if (!process.env.DATABASE_URL) {
  console.error('bench/email-list.js needs DATABASE_URL (a PostgreSQL server to create a database on)');
  process.exit(1);
}

const load = (url, title, headers) => measure(url, title, { connections: CONNECTIONS, duration: DURATION, headers });

const database = await createTestDatabase(process.env.DATABASE_URL);
const hello = await startHelloWorld();
const app = await startApp({ databaseUrl: database.url });
const sql = postgres(database.url, { max: 1, onnotice: () => {} });
try {
  const authorization = await registerUser(app.url);
  const userId = JSON.parse(Buffer.from(authorization.split('.')[1], 'base64url').toString()).sub;
  const started = performance.now();
  const [account] = await sql`
    insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user,
      smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc, connected)
    values (${userId}, 'imap', 'bench@example.com', '127.0.0.1', 1, false, 'bench', '127.0.0.1', 1, false, 'bench', 'v1:unused', false)
    returning id`;
  // Four folders, a fifth unread, dates a minute apart: the shape of a real mailbox.
  await sql`
    insert into email.messages (user_id, account_id, folder, uid, message_id, from_addr, to_addrs, subject, text_body, preview, is_read, sent_at)
    select ${userId}, ${account.id}, (array['inbox','inbox','inbox','sent','trash'])[1 + i % 5], i, '<bench-' || i || '@example.org>',
      'Cliente ' || (i % 500) || ' <cliente' || (i % 500) || '@example.org>', 'bench@example.com', 'Pedido ' || i,
      'Hola, este es el mensaje número ' || i, left('Hola, este es el mensaje número ' || i || ' del banco de pruebas', 50),
      i % 5 <> 0, now() - i * interval '1 minute'
    from generate_series(1, ${ROWS}) as i`;
  await sql`analyze email.messages`;
  console.log(`\nloaded ${ROWS.toLocaleString('en')} messages in ${((performance.now() - started) / 1000).toFixed(1)} s; ${CONNECTIONS} connections, ${DURATION} s per run`);

  const auth = { authorization };
  const runs = [
    await load(hello.url, 'hello world (bare Fastify)'),
    await load(`${app.url}/api/emails`, 'GET /api/emails (inbox, page 1, 20)', auth),
    await load(`${app.url}/api/emails?limit=50&folder=sent`, 'GET /api/emails?limit=50&folder=sent', auth),
    await load(`${app.url}/api/emails?search=pedido%20777`, 'GET /api/emails?search=pedido 777', auth),
  ];
  printLoadTable(runs);
  const list = runs[1];
  console.log(`\nlist p99 ${list.p99} ms (target < ${LIST_P99_TARGET_MS} ms): ${list.p99 < LIST_P99_TARGET_MS ? 'met' : 'MISSED'}`);
} finally {
  await sql.end();
  await app.stop();
  await hello.stop();
  await database.drop();
}
