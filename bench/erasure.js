// "Eliminar mi cuenta" for an owner with 10,000 contacts and 10,000 WhatsApp messages (another owner with
// as many keeps them), end to end: from POST /api/account/delete to every service reporting done, through
// the gateway that mounts every service. Beside it, the reference measured in the same run: the same
// contacts, chats and messages of a fresh copy erased by one SQL statement.
//   node bench/erasure.js [--contacts 10000] [--messages 10000]             (embedded: PGlite, in-process bus)
//   DATABASE_URL=postgres://… NATS_URL=nats://… node bench/erasure.js      (PostgreSQL and JetStream)
// Needs the build (npm run build): it runs the gateway and the services from dist/.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createTestPlatform } from '../packages/kit/dist/testing/index.js';
import { buildGateway } from '../gateway/dist/gateway.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({ options: { contacts: { type: 'string', default: '10000' }, messages: { type: 'string', default: '10000' } } });
const CONTACTS = Number(args.contacts);
const MESSAGES = Number(args.messages);
const CHATS = 200;
const PASSWORD = 'clave-larga-1';

const teardowns = [];
const platform = await createTestPlatform({ teardown: (fn) => teardowns.push(fn) }, { nats: true, config: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } });
const gateway = await buildGateway(platform, 'embedded');
await gateway.ready();
const { sql } = platform.db;
const topology = platform.db.kind === 'pglite' ? 'embedded (PGlite, in-process bus)' : `PostgreSQL, ${platform.bus.kind === 'jetstream' ? 'JetStream' : 'in-process bus'}`;

async function register(name) {
  const res = await gateway.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { firstName: name, lastName: 'Bench', email: `${name}.${randomUUID()}@ejemplo.es`, password: PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The owner's contacts, chats and messages, written as the services' repositories store them. */
async function load(userId) {
  await sql`
    insert into contacts.contacts (user_id, first_name, last_name, email, phone, company)
    select ${userId}, 'Cliente' || i, 'Apellido' || i, 'cliente' || i || '@ejemplo.es', '+3460000' || lpad(i::text, 4, '0'), 'Empresa ' || (i % 50)
    from generate_series(1, ${CONTACTS}) as i`;
  await sql`
    insert into whatsapp.chats (user_id, jid, name, last_at, last_text, last_direction)
    select ${userId}, 'c' || i || '@s.whatsapp.net', 'Cliente ' || i, now(), 'Hola', 'incoming'
    from generate_series(1, ${CHATS}) as i`;
  await sql`
    insert into whatsapp.messages (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, sent_at, status)
    select ${userId}, c.ids[1 + i % ${CHATS}], 'm-' || i, 'incoming', 'phone', 'a@s.whatsapp.net', 'b@s.whatsapp.net',
           'Mensaje número ' || i || ' con algo de texto de un cliente', now() - i * interval '1 second', 'received'
    from generate_series(1, ${MESSAGES}) as i,
         (select array_agg(id order by jid) as ids from whatsapp.chats where user_id = ${userId}) c`;
}

async function rowsOf(userId) {
  const [row] = await sql`
    select (select count(*) from contacts.contacts where user_id = ${userId})
         + (select count(*) from whatsapp.messages where user_id = ${userId})
         + (select count(*) from whatsapp.chats where user_id = ${userId}) as n`;
  return Number(row.n);
}

try {
  const other = await register('otro');
  await load(other.user.id);
  const owner = await register('dueno');
  await load(owner.user.id);
  const before = await rowsOf(owner.user.id);

  const started = performance.now();
  const asked = await gateway.inject({ method: 'POST', url: '/api/account/delete', headers: { authorization: `Bearer ${owner.token}` }, payload: { password: PASSWORD } });
  if (asked.statusCode !== 202) throw new Error(`delete: ${asked.statusCode} ${asked.body}`);
  const acceptedMs = performance.now() - started;
  const { id } = asked.json();
  let progress;
  for (;;) {
    progress = (await gateway.inject({ url: `/api/account/delete/${id}` })).json();
    if (progress.status === 'done') break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const erasureMs = performance.now() - started;
  const left = await rowsOf(owner.user.id);
  const otherKept = await rowsOf(other.user.id);

  // The reference: the same rows for a fresh owner, erased by one statement (no other table, no provider).
  const copy = randomUUID();
  await load(copy);
  const refStarted = performance.now();
  await sql`
    with contacts as (delete from contacts.contacts where user_id = ${copy}),
         chats as (delete from whatsapp.chats where user_id = ${copy})
    delete from whatsapp.messages where user_id = ${copy}`;
  const referenceMs = performance.now() - refStarted;
  await sql`delete from whatsapp.inbox_totals where user_id = ${copy}`;
  await sql`delete from contacts.owner_counts where user_id = ${copy}`;

  console.log(`\nerasing an account with ${CONTACTS.toLocaleString('en')} contacts and ${MESSAGES.toLocaleString('en')} WhatsApp messages (${topology}, same run)`);
  printTable([
    { how: 'Eliminar mi cuenta (request to every service done)', rows: before, 'ms': erasureMs.toFixed(0), services: progress.services.length, left },
    { how: '  of which the request (202: sessions ended)', rows: '', ms: acceptedMs.toFixed(0), services: '', left: '' },
    { how: 'reference: one DELETE statement, same rows', rows: before, ms: referenceMs.toFixed(0), services: 1, left: await rowsOf(copy) },
  ]);
  console.log(`\nthe other owner kept ${otherKept.toLocaleString('en')} of ${(CONTACTS + MESSAGES + CHATS).toLocaleString('en')} rows`);
  console.log(`erasure / reference: ${(erasureMs / referenceMs).toFixed(2)}x`);
} finally {
  await gateway.close();
  for (const fn of teardowns.reverse()) await fn();
}
