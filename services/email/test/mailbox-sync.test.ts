import t from 'tap';
import type { MailFolder } from '@asistente/contracts';
import { HostGuard } from '@asistente/kit';
import { createTestPlatform, type Teardown } from '@asistente/kit/testing';
import { ImapMailboxes } from '../src/adapters/imap-mailbox.js';
import { AccountsRepository } from '../src/domain/accounts.repository.js';
import { Credentials } from '../src/domain/credentials.js';
import { mapFolders } from '../src/domain/folders.js';
import { MailServers } from '../src/domain/mail-servers.js';
import { MailboxSync } from '../src/domain/mailbox-sync.js';
import { withMailbox, type FolderEntry, type Mailbox, type OpenFolder } from '../src/domain/mailbox.js';
import { MessagesRepository } from '../src/domain/messages.repository.js';
import { LeasesRepository } from '../src/domain/leases.repository.js';
import { DEFAULT_LEASE, SyncManager } from '../src/domain/sync-manager.js';
import { startDovecot } from './fixtures/dovecot.js';
import { eventually, otherMailApp, rawMail } from './fixtures/imap-peer.js';

// Dovecot listens on loopback: the operator's own network, as ALLOWED_PRIVATE_ADDRESSES would say.
const localServers = new MailServers(new HostGuard('127.0.0.1'));

/** The mailbox as a server without CONDSTORE shows it: its folders carry no change mark. */
function withoutChangeMarks(mailbox: Mailbox): Mailbox {
  return Object.assign(Object.create(mailbox) as Mailbox, {
    inFolder: <T>(path: string, task: (folder: OpenFolder) => Promise<T>) =>
      mailbox.inFolder(path, (folder) => {
        const { changeMark: _, ...status } = folder.status;
        return task(Object.assign(Object.create(folder) as OpenFolder, { status }));
      }),
  });
}

const entry = (path: string, specialUse?: string): FolderEntry => ({ path, name: path.split('/').pop()!, flags: new Set<string>(), ...(specialUse ? { specialUse } : {}) });

/** A Dovecot of its own with one user, another mail app logged in to it, and the user's account stored. */
async function connectedAccount(t: Teardown, user: string, password: string, userId: string) {
  const dovecot = await startDovecot({ users: [{ user, password }] });
  t.teardown(() => dovecot.stop());
  const phone = await otherMailApp(dovecot.host, dovecot.port, user, password);
  t.teardown(async () => {
    await phone.logout().catch(() => {});
    phone.close();
  });
  const platform = await createTestPlatform(t);
  const sql = platform.db.sql;
  const accounts = new AccountsRepository(sql);
  const messages = new MessagesRepository(sql);
  const credentials = new Credentials(platform.secrets, accounts, {} as never, localServers);
  const server = { host: dovecot.host, port: dovecot.port, secure: false, user };
  const row = await accounts.upsert(userId, {
    provider: 'imap',
    email: user,
    imap: server,
    smtp: server,
    credentialsEnc: credentials.seal(userId, { kind: 'password', imapPassword: password, smtpPassword: password }),
  });
  const account = await credentials.open(row);
  // A sync over a session of its own through the mailbox port, as the service runs one; `phone` changes the
  // mailbox behind its back.
  const syncOnce = (sync: MailboxSync, only: MailFolder[], as: (mailbox: Mailbox) => Mailbox = (mailbox) => mailbox) =>
    withMailbox(new ImapMailboxes(), account, undefined, (mailbox) => sync.sync(as(mailbox), account, only));
  return { dovecot, phone, platform, sql, accounts, messages, row, account, syncOnce };
}

t.test('folders: special use first, the usual names (Spanish too) when the server has none', async (t) => {
  t.same(
    [...mapFolders([entry('INBOX', '\\Inbox'), entry('Enviados'), entry('[Gmail]/Papelera', '\\Trash'), entry('Borradores'), entry('Sent')])],
    [
      ['inbox', 'INBOX'],
      ['trash', '[Gmail]/Papelera'],
      ['sent', 'Enviados'],
      ['drafts', 'Borradores'],
    ],
  );
  t.same([...mapFolders([entry('Elementos enviados'), entry('Elementos eliminados')])], [
    ['inbox', 'INBOX'],
    ['sent', 'Elementos enviados'],
    ['trash', 'Elementos eliminados'],
  ]);
});

t.test('a UIDVALIDITY change resyncs the folder; incremental syncs fetch only new UIDs', async (t) => {
  const USER = 'eva@example.com';
  const { phone, platform, sql, messages, account, syncOnce } = await connectedAccount(t, USER, 'clave-de-eva', '00000000-0000-4000-8000-00000000000e');
  const sync = new MailboxSync(sql, messages, platform.outbox('email'), { days: 30, maxPerFolder: 2 }, platform.log, new AccountsRepository(sql));
  const subjects = async () =>
    (await sql<{ subject: string }[]>`select subject from email.messages where folder = 'drafts' order by uid`).map((r) => r.subject);

  for (const subject of ['Borrador 1', 'Borrador 2', 'Borrador 3']) {
    await phone.append('Drafts', rawMail({ from: USER, to: 'x@y.com', subject, body: subject }));
  }
  t.same(await syncOnce(sync, ['drafts']), [{ folder: 'drafts', inserted: 2 }], 'the first window keeps the newest 2 (configurable)');
  t.same(await subjects(), ['Borrador 2', 'Borrador 3']);
  const before = (await messages.folders(account.id)).get('drafts')!;

  await phone.append('Drafts', rawMail({ from: USER, to: 'x@y.com', subject: 'Borrador 4', body: '4' }));
  t.same(await syncOnce(sync, ['drafts']), [{ folder: 'drafts', inserted: 1 }], 'then only UIDs above the last one');
  t.same(await subjects(), ['Borrador 2', 'Borrador 3', 'Borrador 4']);

  // The folder is recreated on the server: same name, new UIDVALIDITY, the old UIDs mean nothing.
  await phone.mailboxDelete('Drafts');
  await phone.mailboxCreate('Drafts');
  await phone.append('Drafts', rawMail({ from: USER, to: 'x@y.com', subject: 'Nuevo borrador', body: 'n' }));
  const status = await phone.status('Drafts', { uidValidity: true });
  if (!status) throw new Error('STATUS failed');
  t.not(status.uidValidity, before.uidValidity, 'precondition: the server changed UIDVALIDITY');
  t.same(await syncOnce(sync, ['drafts']), [{ folder: 'drafts', inserted: 1 }]);
  t.same(await subjects(), ['Nuevo borrador'], 'resynced from scratch');
  t.equal((await messages.folders(account.id)).get('drafts')!.uidValidity, status.uidValidity);
});

t.test('a refused password disconnects the account (no retry loop); connecting it again resumes the sync', async (t) => {
  const USER = 'rosa@example.com';
  const PASSWORD = 'clave-de-rosa';
  const dovecot = await startDovecot({ users: [{ user: USER, password: PASSWORD }] });
  t.teardown(() => dovecot.stop());
  const platform = await createTestPlatform(t);
  const sql = platform.db.sql;
  const accounts = new AccountsRepository(sql);
  const messages = new MessagesRepository(sql);
  const credentials = new Credentials(platform.secrets, accounts, {} as never, localServers);
  const sync = new MailboxSync(sql, messages, platform.outbox('email'), { days: 30, maxPerFolder: 100 }, platform.log, new AccountsRepository(sql));
  const manager = new SyncManager(accounts, new LeasesRepository(sql), messages, credentials, sync, platform.log, DEFAULT_LEASE, true, new ImapMailboxes());
  t.teardown(() => manager.close());
  const userId = '00000000-0000-4000-8000-00000000000f';
  const server = { host: dovecot.host, port: dovecot.port, secure: false, user: USER };
  const save = (password: string) =>
    accounts.upsert(userId, {
      provider: 'imap',
      email: USER,
      imap: server,
      smtp: server,
      credentialsEnc: credentials.seal(userId, { kind: 'password', imapPassword: password, smtpPassword: password }),
    });

  // The password was changed elsewhere after the account was connected.
  const row = await save('la-de-antes');
  await manager.start(row.id);
  const refused = await eventually('the account marked disconnected', async () => {
    const [current] = await sql<{ connected: boolean; error: string | null }[]>`select connected, error from email.accounts where id = ${row.id}`;
    return current && !current.connected && current;
  });
  t.equal(refused.error, 'No se pudo conectar al servidor IMAP: el servidor rechazó el usuario o la contraseña');

  await save(PASSWORD);
  await manager.start(row.id);
  await eventually('the sync after reconnecting', async () => {
    const [current] = await sql<{ lastSyncAt: Date | null; connected: boolean }[]>`select last_sync_at, connected from email.accounts where id = ${row.id}`;
    return current?.connected && current.lastSyncAt;
  });
  t.pass('synced again with the new password');
});

t.test('the first sync stores summaries: preview from the first text part in any encoding, attachments from the structure', async (t) => {
  const USER = 'lola@example.com';
  const { phone, platform, sql, messages, account, syncOnce } = await connectedAccount(t, USER, 'clave-de-lola', '00000000-0000-4000-8000-00000000001a');
  const head = (subject: string, type: string) =>
    [`From: Ana <ana@example.org>`, `To: ${USER}`, `Subject: ${subject}`, `Date: ${new Date().toUTCString()}`, 'MIME-Version: 1.0', type].join('\r\n');
  await phone.append(
    'INBOX',
    `${head('Base64', 'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64')}\r\n\r\n${Buffer.from('Años de señales, ¿qué tal?').toString('base64')}\r\n`,
  );
  await phone.append(
    'INBOX',
    `${head('QP', 'Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable')}\r\n\r\nCami=F3n con ca=\r\nf=E9\r\n`,
  );
  await phone.append(
    'INBOX',
    [
      head('Mixto', 'Content-Type: multipart/mixed; boundary="m"'),
      '',
      '--m',
      'Content-Type: multipart/alternative; boundary="a"',
      '',
      '--a',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<html><head><style>p{color:red}</style></head><body><p>Hola <b>Lola</b> &amp; equipo</p></body></html>',
      '--a--',
      '--m',
      'Content-Type: application/pdf; name="f.pdf"',
      'Content-Disposition: attachment; filename="f.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF').toString('base64'),
      '--m--',
      '',
    ].join('\r\n'),
  );
  const sync = new MailboxSync(sql, messages, platform.outbox('email'), { days: 30, maxPerFolder: 100 }, platform.log, new AccountsRepository(sql));
  t.same(await syncOnce(sync, ['inbox']), [{ folder: 'inbox', inserted: 3 }]);
  const rows = await sql<{ subject: string; preview: string; hasAttachments: boolean; bodyFetched: boolean; fromAddr: string }[]>`
    select subject, preview, has_attachments, body_fetched, from_addr from email.messages order by uid`;
  t.same(
    rows.map((r) => [r.subject, r.preview, r.hasAttachments, r.bodyFetched, r.fromAddr]),
    [
      ['Base64', 'Años de señales, ¿qué tal?', false, false, 'Ana <ana@example.org>'],
      ['QP', 'Camión con café', false, false, 'Ana <ana@example.org>'],
      ['Mixto', 'Hola Lola & equipo', true, false, 'Ana <ana@example.org>'],
    ],
  );

  // CONDSTORE: the next sync reads only what changed since the stored HIGHESTMODSEQ.
  const modseq = async () => (await messages.folders(account.id)).get('inbox')!.highestModseq;
  const first = await modseq();
  t.ok(first !== null && first !== undefined && first > 0n, 'HIGHESTMODSEQ kept (Dovecot has CONDSTORE)');
  const state = async () =>
    (await sql<{ subject: string; isRead: boolean }[]>`select subject, is_read from email.messages order by uid`).map((r) => [r.subject, r.isRead]);
  let lock = await phone.getMailboxLock('INBOX');
  try {
    await phone.messageFlagsAdd({ subject: 'QP' }, ['\\Seen']);
    await phone.messageDelete({ subject: 'Base64' });
  } finally {
    lock.release();
  }
  await syncOnce(sync, ['inbox']);
  t.same(await state(), [['QP', true], ['Mixto', false]], 'changed flag and expunge applied');
  t.ok((await modseq())! > first!, 'modseq moved on');

  // A server without CONDSTORE: every flag is read, as before.
  lock = await phone.getMailboxLock('INBOX');
  try {
    await phone.messageFlagsRemove({ subject: 'QP' }, ['\\Seen']);
  } finally {
    lock.release();
  }
  await syncOnce(sync, ['inbox'], withoutChangeMarks);
  t.same(await state(), [['QP', false], ['Mixto', false]], 'fallback reads all flags');
  t.equal(await modseq(), null, 'no modseq without CONDSTORE');
});

t.test('a first sync stores the newest mails first, counts its progress on the account, and a window cut short starts again', async (t) => {
  const USER = 'nuria@example.com';
  const { phone, platform, sql, accounts, messages, account, syncOnce } = await connectedAccount(t, USER, 'clave-de-nuria', '00000000-0000-4000-8000-0000000000a1');
  for (let i = 1; i <= 60; i++) await phone.append('INBOX', rawMail({ from: 'cliente@x.com', to: USER, subject: `Pedido ${i}`, body: `Pedido número ${i}` }));

  const progress: { started: number[]; advanced: number[]; ended: number } = { started: [], advanced: [], ended: 0 };
  const recorder = {
    syncStarted: async (id: string, total: number) => {
      progress.started.push(total);
      await accounts.syncStarted(id, total);
    },
    syncAdvanced: async (tx: Parameters<AccountsRepository['syncAdvanced']>[0], id: string, count: number) => {
      progress.advanced.push(count);
      await accounts.syncAdvanced(tx, id, count);
    },
    syncEnded: async (id: string) => {
      progress.ended++;
      await accounts.syncEnded(id);
    },
  };
  // The second batch fails once: the sync is cut short after the first.
  const batches: number[][] = [];
  let failOnce = true;
  const recording = Object.create(messages) as MessagesRepository;
  recording.insertMany = async (tx, userId, accountId, folder, rows) => {
    if (batches.length === 1 && failOnce) {
      failOnce = false;
      throw new Error('connection lost');
    }
    batches.push(rows.map((r) => r.uid));
    return messages.insertMany(tx, userId, accountId, folder, rows);
  };
  const sync = new MailboxSync(sql, recording, platform.outbox('email'), { days: 30, maxPerFolder: 100 }, platform.log, recorder);

  await t.rejects(syncOnce(sync, ['inbox']));
  t.same(progress.started, [60], 'the window counted before fetching');
  t.same([...batches[0]!].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => 11 + i), 'the newest 50 first, in a small first batch');
  t.equal(progress.ended, 1, 'progress cleared even when the sync fails');
  const [cleared] = await sql<{ syncTotal: number | null }[]>`select sync_total from email.accounts where id = ${account.id}`;
  t.equal(cleared!.syncTotal, null);
  const pending = (await messages.folders(account.id)).get('inbox')!;
  t.equal(pending.uidValidity, 0n, 'the window is marked unfinished');
  t.equal(pending.path, 'INBOX', 'the path is known, so listed mail can be opened meanwhile');

  t.same(await syncOnce(sync, ['inbox']), [{ folder: 'inbox', inserted: 60 }], 'the window starts again');
  t.same(progress.started, [60, 60]);
  const [count] = await sql<{ n: string }[]>`select count(*) as n from email.messages where account_id = ${account.id} and folder = 'inbox'`;
  t.equal(Number(count!.n), 60, 'each mail once');
  const done = (await messages.folders(account.id)).get('inbox')!;
  t.not(done.uidValidity, 0n);
  t.equal(done.lastUid, 60);
  const received = await sql<{ messageId: string }[]>`select data->>'messageId' as "messageId" from email.outbox where type = 'email.message.received'`;
  t.equal(new Set(received.map((r) => r.messageId)).size, 60, "the first window's history counts as received, each mail once");
  t.equal(received.length, 60, 'the attempt cut short counted nothing: its window was not complete');

  await phone.append('INBOX', rawMail({ from: 'cliente@x.com', to: USER, subject: 'Pedido 61', body: 'Nuevo' }));
  t.same(await syncOnce(sync, ['inbox']), [{ folder: 'inbox', inserted: 1 }]);
  t.same(progress.started, [60, 60], 'an incremental sync shows no progress');
});

t.test("mail received counts on the day it arrived (INTERNALDATE), the first sync's history included", async (t) => {
  const USER = 'lucia@example.com';
  const { phone, platform, sql, messages, syncOnce } = await connectedAccount(t, USER, 'clave-de-lucia', '00000000-0000-4000-8000-0000000000b2');
  const sync = new MailboxSync(sql, messages, platform.outbox('email'), { days: 30, maxPerFolder: 100 }, platform.log, new AccountsRepository(sql));
  const start = Math.floor(Date.now() / 1000) * 1000;
  const daysAgo = (n: number) => new Date(start - n * 86_400_000);
  // Arrived 3 days ago; arrived yesterday although its sender's clock wrote a date 10 days ago.
  await phone.append('INBOX', rawMail({ from: 'a@cliente.com', to: USER, subject: 'Hace tres días', body: 'x' }), [], daysAgo(3));
  await phone.append('INBOX', rawMail({ from: 'b@cliente.com', to: USER, subject: 'Ayer', body: 'x', date: daysAgo(10) }), [], daysAgo(1));
  await syncOnce(sync, ['inbox']);
  const received = async () =>
    (
      await sql<{ subject: string; occurredAt: Date }[]>`
        select m.subject, o.occurred_at as "occurredAt" from email.outbox o join email.messages m on m.id::text = o.data->>'messageId'
        where o.type = 'email.message.received' order by o.occurred_at`
    ).map((r) => [r.subject, new Date(r.occurredAt).toISOString()]);
  t.same(await received(), [
    ['Hace tres días', daysAgo(3).toISOString()],
    ['Ayer', daysAgo(1).toISOString()],
  ]);

  const before = Date.now();
  await phone.append('INBOX', rawMail({ from: 'c@cliente.com', to: USER, subject: 'Ahora', body: 'x' }));
  await syncOnce(sync, ['inbox']);
  const now = (await received()).at(-1)!;
  t.equal(now[0], 'Ahora');
  t.ok(Date.parse(now[1]!) >= before - 1000, 'new mail counts now, when it arrives');
  t.equal((await received()).length, 3, 'each mail once');
});
