// The mailbox port's conformance suite against every mailbox provider: IMAP against Dovecot, and the in-memory one added as any new provider is.
import t from 'tap';
import { HostGuard } from '@asistente/kit';
import { ImapMailboxes } from '../src/adapters/imap-mailbox.js';
import { MailServers } from '../src/domain/mail-servers.js';
import { startDovecot } from './fixtures/dovecot.js';
import { InMemoryMailboxes } from './support/in-memory-mailbox.js';
import { mailboxConformance } from './support/mailbox-conformance.js';

// Dovecot listens on loopback: the operator's own network, as ALLOWED_PRIVATE_ADDRESSES would say.
const servers = new MailServers(new HostGuard('127.0.0.1'));
const USER = 'buzon@ejemplo.com';
const PASSWORD = 'clave-del-buzon';

/** A login at `port` of loopback with `password`. */
async function loginAt(port: number, password: string) {
  const settings = { host: '127.0.0.1', port, secure: false, user: USER };
  const { imap, smtp } = await servers.check(settings, settings);
  return { imap, smtp, secret: { kind: 'password' as const, imapPassword: password, smtpPassword: password } };
}

await mailboxConformance(t, 'IMAP (Dovecot)', async (t) => {
  const dovecot = await startDovecot({ users: [{ user: USER, password: PASSWORD }] });
  t.teardown(() => dovecot.stop());
  return { provider: new ImapMailboxes(), login: await loginAt(dovecot.port, PASSWORD), refused: await loginAt(dovecot.port, 'otra-clave') };
});

await mailboxConformance(t, 'in memory', async () => {
  const memory = new InMemoryMailboxes();
  memory.addUser(USER, PASSWORD);
  return { provider: memory, login: await loginAt(1, PASSWORD), refused: await loginAt(1, 'otra-clave') };
});
