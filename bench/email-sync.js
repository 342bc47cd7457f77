// First sync of a large mailbox from a real Dovecot, beside a bare imapflow fetch of the same messages
// measured in the same run (goal: the service's sync at >= 0.5x the bare fetch's messages/s).
//   node --import tsx --conditions=asistente-source bench/email-sync.js [--messages 10000]
// Runs the service's own sync code (services/email/src) on an in-memory PGlite, or on a database of its
// own when DATABASE_URL is set. Needs Debian's dovecot-imapd.
import { chownSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ImapFlow } from 'imapflow';
import { HostGuard } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { AccountsRepository } from '../services/email/src/domain/accounts.repository.ts';
import { Credentials } from '../services/email/src/domain/credentials.ts';
import { MailboxSync } from '../services/email/src/domain/mailbox-sync.ts';
import { MailServers } from '../services/email/src/domain/mail-servers.ts';
import { MessagesRepository } from '../services/email/src/domain/messages.repository.ts';
import { PREVIEW_BYTES, SUMMARY_QUERY } from '../services/email/src/domain/message-summary.ts';
import { startDovecot } from '../services/email/test/fixtures/dovecot.ts';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({ options: { messages: { type: 'string', default: '10000' } } });
const COUNT = Number(args.messages);
const GOAL = 0.5;
const USER = 'bench@example.com';
const PASSWORD = 'bench-password';

const dovecot = await startDovecot({ users: [{ user: USER, password: PASSWORD }] });
const teardowns = [];
const t = { teardown: (fn) => teardowns.push(fn) };
const client = (extra = {}) =>
  new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, doSTARTTLS: false, auth: { user: USER, pass: PASSWORD }, logger: false, disableAutoIdle: true, ...extra });

try {
  // Log in once so Dovecot creates the Maildir, then write the messages straight into it (APPENDing
  // 10,000 would measure the loading, not the sync).
  const first = client();
  await first.connect();
  await first.mailboxOpen('INBOX');
  await first.logout();
  const maildir = join(dovecot.dir, 'mail', USER, 'Maildir');
  const owner = statSync(maildir);
  mkdirSync(join(maildir, 'new'), { recursive: true });
  const now = Date.now();
  for (let i = 0; i < COUNT; i++) {
    const date = new Date(now - i * 60_000).toUTCString();
    const body = `Hola, este es el mensaje número ${i} del banco de pruebas, con algo de texto para la vista previa.`;
    const raw = [
      `From: Cliente ${i % 500} <cliente${i % 500}@example.org>`,
      `To: ${USER}`,
      `Subject: Pedido ${i}`,
      `Date: ${date}`,
      `Message-ID: <bench-${i}@example.org>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '',
    ].join('\r\n');
    const file = join(maildir, 'new', `${Math.floor(now / 1000)}.bench${i}.localhost`);
    writeFileSync(file, raw);
    chownSync(file, owner.uid, owner.gid);
  }

  // Dovecot indexes the new files on the first read: a warm-up pass, untimed, so both runs below meet the
  // same warm server.
  const bare = client();
  await bare.connect();
  await bare.mailboxOpen('INBOX');
  for await (const message of bare.fetch('1:*', { uid: true, source: true })) void message;

  // Bare imapflow: what the first sync asks for (envelope, flags, structure, size, References and the
  // start of the first text part for the preview) over one connection, nothing else done with it. The
  // body is fetched when a mail is opened, in the service as in any mail app.
  let started = performance.now();
  let fetched = 0;
  const query = { ...SUMMARY_QUERY, headers: [...SUMMARY_QUERY.headers], bodyParts: [{ key: '1', start: 0, maxLength: PREVIEW_BYTES }] };
  for await (const message of bare.fetch('1:*', query)) if (message.envelope) fetched++;
  const bareSeconds = (performance.now() - started) / 1000;
  await bare.logout();
  if (fetched !== COUNT) throw new Error(`bare fetch saw ${fetched} of ${COUNT}`);

  // The service: the same messages fetched, summarised and stored in batches by its first sync.
  // A database of its own on DATABASE_URL's server (createTestDatabase), or an in-memory PGlite.
  const platform = await createTestPlatform(t);
  const sql = platform.db.sql;
  const accounts = new AccountsRepository(sql);
  const messages = new MessagesRepository(sql);
  // Dovecot on loopback: allowed, as an operator allows a LAN mail server (ALLOWED_PRIVATE_ADDRESSES).
  const credentials = new Credentials(platform.secrets, accounts, {}, new MailServers(new HostGuard('127.0.0.1')));
  const userId = '00000000-0000-4000-8000-000000000001';
  const server = { host: dovecot.host, port: dovecot.port, secure: false, user: USER };
  const row = await accounts.upsert(userId, {
    provider: 'imap',
    email: USER,
    imap: server,
    smtp: server,
    credentialsEnc: credentials.seal(userId, { kind: 'password', imapPassword: PASSWORD, smtpPassword: PASSWORD }),
  });
  const account = await credentials.open(row);
  const sync = new MailboxSync(sql, messages, platform.outbox('email'), { days: 3650, maxPerFolder: 1_000_000 }, platform.log);
  const connection = client();
  await connection.connect();
  started = performance.now();
  const [inbox] = await sync.sync(connection, account, ['inbox']);
  const syncSeconds = (performance.now() - started) / 1000;
  await connection.logout();
  if (inbox?.inserted !== COUNT) throw new Error(`the sync stored ${inbox?.inserted} of ${COUNT}`);

  const bareRate = COUNT / bareSeconds;
  const syncRate = COUNT / syncSeconds;
  console.log(`\nFirst sync of ${COUNT.toLocaleString('en')} messages from Dovecot ${process.env.DATABASE_URL ? '(PostgreSQL)' : '(PGlite)'}`);
  printTable([
    { run: 'bare imapflow fetch (envelope, flags, structure, preview part)', seconds: bareSeconds.toFixed(2), 'messages/s': Math.round(bareRate).toLocaleString('en'), 'vs bare': '1.00x' },
    { run: 'service first sync (fetch, summarise, store)', seconds: syncSeconds.toFixed(2), 'messages/s': Math.round(syncRate).toLocaleString('en'), 'vs bare': `${(syncRate / bareRate).toFixed(2)}x` },
  ]);
  console.log(`\nsync at ${(syncRate / bareRate).toFixed(2)}x the bare fetch (goal >= ${GOAL}x): ${syncRate / bareRate >= GOAL ? 'met' : 'MISSED'}`);
} finally {
  for (const fn of teardowns.reverse()) await fn();
  await dovecot.stop();
}
