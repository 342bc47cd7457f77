import t from 'tap';
import type { ListResponse } from 'imapflow';
import { createTestPlatform } from '@asistente/kit/testing';
import { AccountsRepository } from '../src/domain/accounts.repository.js';
import { Credentials } from '../src/domain/credentials.js';
import { mapFolders } from '../src/domain/folders.js';
import { MailboxSync } from '../src/domain/mailbox-sync.js';
import { MessagesRepository } from '../src/domain/messages.repository.js';
import { SyncManager } from '../src/domain/sync-manager.js';
import { startDovecot } from './fixtures/dovecot.js';
import { eventually, otherMailApp, rawMail } from './fixtures/imap-peer.js';

const entry = (path: string, specialUse?: string): ListResponse =>
  ({ path, name: path.split('/').pop()!, flags: new Set<string>(), ...(specialUse ? { specialUse } : {}) }) as unknown as ListResponse;

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
  const PASSWORD = 'clave-de-eva';
  const dovecot = await startDovecot({ users: [{ user: USER, password: PASSWORD }] });
  t.teardown(() => dovecot.stop());
  const phone = await otherMailApp(dovecot.host, dovecot.port, USER, PASSWORD);
  t.teardown(async () => {
    await phone.logout().catch(() => {});
    phone.close();
  });
  const platform = await createTestPlatform(t);
  const sql = platform.db.sql;
  const accounts = new AccountsRepository(sql);
  const messages = new MessagesRepository(sql);
  const credentials = new Credentials(platform.secrets, accounts, {} as never);
  const userId = '00000000-0000-4000-8000-00000000000e';
  const server = { host: dovecot.host, port: dovecot.port, secure: false, user: USER };
  const row = await accounts.upsert(userId, {
    provider: 'imap',
    email: USER,
    imap: server,
    smtp: server,
    credentialsEnc: credentials.seal(userId, { kind: 'password', imapPassword: PASSWORD, smtpPassword: PASSWORD }),
  });
  const account = await credentials.open(row);
  const sync = new MailboxSync(sql, messages, platform.outbox('email'), { days: 30, maxPerFolder: 2 }, platform.log);
  const subjects = async () =>
    (await sql<{ subject: string }[]>`select subject from email.messages where folder = 'drafts' order by uid`).map((r) => r.subject);

  for (const subject of ['Borrador 1', 'Borrador 2', 'Borrador 3']) {
    await phone.append('Drafts', rawMail({ from: USER, to: 'x@y.com', subject, body: subject }));
  }
  t.same(await sync.sync(phone, account, ['drafts']), [{ folder: 'drafts', inserted: 2 }], 'the first window keeps the newest 2 (configurable)');
  t.same(await subjects(), ['Borrador 2', 'Borrador 3']);
  const before = (await messages.folders(account.id)).get('drafts')!;

  await phone.append('Drafts', rawMail({ from: USER, to: 'x@y.com', subject: 'Borrador 4', body: '4' }));
  t.same(await sync.sync(phone, account, ['drafts']), [{ folder: 'drafts', inserted: 1 }], 'then only UIDs above the last one');
  t.same(await subjects(), ['Borrador 2', 'Borrador 3', 'Borrador 4']);

  // The folder is recreated on the server: same name, new UIDVALIDITY, the old UIDs mean nothing.
  await phone.mailboxDelete('Drafts');
  await phone.mailboxCreate('Drafts');
  await phone.append('Drafts', rawMail({ from: USER, to: 'x@y.com', subject: 'Nuevo borrador', body: 'n' }));
  const status = await phone.status('Drafts', { uidValidity: true });
  if (!status) throw new Error('STATUS failed');
  t.not(status.uidValidity, before.uidValidity, 'precondition: the server changed UIDVALIDITY');
  t.same(await sync.sync(phone, account, ['drafts']), [{ folder: 'drafts', inserted: 1 }]);
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
  const credentials = new Credentials(platform.secrets, accounts, {} as never);
  const sync = new MailboxSync(sql, messages, platform.outbox('email'), { days: 30, maxPerFolder: 100 }, platform.log);
  const manager = new SyncManager(accounts, messages, credentials, sync, platform.log);
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
  manager.start(row.id);
  const refused = await eventually('the account marked disconnected', async () => {
    const [current] = await sql<{ connected: boolean; error: string | null }[]>`select connected, error from email.accounts where id = ${row.id}`;
    return current && !current.connected && current;
  });
  t.equal(refused.error, 'No se pudo conectar al servidor IMAP: el servidor rechazó el usuario o la contraseña');

  await save(PASSWORD);
  manager.start(row.id);
  await eventually('the sync after reconnecting', async () => {
    const [current] = await sql<{ lastSyncAt: Date | null; connected: boolean }[]>`select last_sync_at, connected from email.accounts where id = ${row.id}`;
    return current?.connected && current.lastSyncAt;
  });
  t.pass('synced again with the new password');
});
