import t from 'tap';
import { HostGuard, type CheckedHost, type Resolver } from '@asistente/kit';
import { closeImap, MailConnectError, openImap } from '../src/adapters/imap-client.js';
import { SmtpTransport } from '../src/adapters/smtp-transport.js';
import type { CheckedServer } from '../src/domain/account.js';
import { MailServers } from '../src/domain/mail-servers.js';
import { startDovecot } from './fixtures/dovecot.js';
import { startPlainImapPeer, startPlainSmtpPeer, type PlainPeer } from './fixtures/plain-peers.js';
import { startSmtpPeer } from './fixtures/smtp-peer.js';

const USER = 'eva@example.com';
const PASSWORD = 'clave-que-no-viaja-en-claro';

/** Every form the password could cross the wire in: as typed (LOGIN), or in a SASL PLAIN response. */
function carriesPassword(text: string): boolean {
  const plain = Buffer.from(`\0${USER}\0${PASSWORD}`).toString('base64');
  const alone = Buffer.from(PASSWORD).toString('base64');
  return text.includes(PASSWORD) || text.includes(plain) || text.includes(alone);
}

/**
 * The TLS rule reads one fact the guard hands over: `plaintextAllowed`, true only for an address in
 * ALLOWED_PRIVATE_ADDRESSES. No public server can run in a test, and the guard (rightly) refuses a
 * public-looking name that resolves to loopback; so the peers listen on 127.0.0.1, the guard checks that
 * address with it allowed, and the test takes the checked target with `plaintextAllowed: false`, exactly
 * what the guard answers for any public address (packages/kit/test/host-guard.test.ts). The adapters are
 * the real ones, talking to peers that offer no STARTTLS and would accept any login.
 */
async function asPublic(peer: PlainPeer): Promise<CheckedServer> {
  const target: CheckedHost = await new HostGuard('127.0.0.1').check(peer.host);
  t.equal(target.plaintextAllowed, true, 'the guard itself allows plain text on the listed address');
  return { host: peer.host, port: peer.port, secure: false, user: USER, target: { ...target, plaintextAllowed: false } };
}

t.test('a public server offering no STARTTLS gets no password, and the owner is told why', async (t) => {
  const imapPeer = await startPlainImapPeer();
  t.teardown(() => imapPeer.close());
  const smtpPeer = await startPlainSmtpPeer();
  t.teardown(() => smtpPeer.close());

  const imapError = await openImap(await asPublic(imapPeer), { user: USER, pass: PASSWORD }).then(
    (client) => closeImap(client),
    (error: unknown) => error,
  );
  t.ok(imapError instanceof MailConnectError, 'IMAP login refused before it started');
  t.match((imapError as Error).message, /^No se pudo conectar al servidor IMAP: 127\.0\.0\.1:\d+ no ofrece conexión cifrada \(STARTTLS\) y la contraseña no se envía sin cifrar/);
  t.ok(imapPeer.connections > 0, 'the IMAP peer was reached');
  t.notOk(carriesPassword(imapPeer.received()), 'the IMAP peer received no password');
  t.notMatch(imapPeer.received(), /AUTHENTICATE|LOGIN/i, 'nor any login command');

  const smtpError = await new SmtpTransport().verify({ smtp: await asPublic(smtpPeer), secret: { kind: 'password', imapPassword: PASSWORD, smtpPassword: PASSWORD } }).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.ok(smtpError instanceof MailConnectError, 'SMTP login refused before it started');
  t.match((smtpError as Error).message, /^No se pudo conectar al servidor SMTP: 127\.0\.0\.1:\d+ no ofrece conexión cifrada \(STARTTLS\)/);
  t.ok(smtpPeer.connections > 0, 'the SMTP peer was reached');
  t.notOk(carriesPassword(smtpPeer.received()), 'the SMTP peer received no password');
  t.notMatch(smtpPeer.received(), /^AUTH/im, 'nor any AUTH command');
});

t.test('on an address the operator allowed, the same peers do get the login (the check above is not vacuous)', async (t) => {
  const imapPeer = await startPlainImapPeer();
  t.teardown(() => imapPeer.close());
  const smtpPeer = await startPlainSmtpPeer();
  t.teardown(() => smtpPeer.close());
  const servers = new MailServers(new HostGuard('127.0.0.1'));
  const checked = await servers.check(
    { host: imapPeer.host, port: imapPeer.port, secure: false, user: USER },
    { host: smtpPeer.host, port: smtpPeer.port, secure: false, user: USER },
  );
  await closeImap(await openImap(checked.imap, { user: USER, pass: PASSWORD }));
  t.ok(carriesPassword(imapPeer.received()), 'plain IMAP login on the allowed address');
  await new SmtpTransport().verify({ smtp: checked.smtp, secret: { kind: 'password', imapPassword: PASSWORD, smtpPassword: PASSWORD } });
  t.ok(carriesPassword(smtpPeer.received()), 'plain SMTP login on the allowed address');
});

t.test('DNS rebinding: the connection goes to the address checked, whatever DNS answers next', async (t) => {
  const dovecot = await startDovecot({ users: [{ user: USER, password: PASSWORD }] });
  t.teardown(() => dovecot.stop());
  const smtp = await startSmtpPeer({ users: { [USER]: PASSWORD } });
  t.teardown(() => smtp.close());
  // Each name's first answer: the (allowed) address of the mail server; every later one: the cloud metadata service.
  const lookups = new Map<string, number>();
  const rebinding: Resolver = async (host) => {
    const seen = lookups.get(host) ?? 0;
    lookups.set(host, seen + 1);
    return [{ address: seen === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 }];
  };
  const servers = new MailServers(new HostGuard('127.0.0.1', rebinding));
  // .invalid names resolve nowhere: a client that asked DNS itself could not connect at all.
  const settings = {
    imap: { host: 'imap.rebind.invalid', port: dovecot.port, secure: false, user: USER },
    smtp: { host: 'smtp.rebind.invalid', port: smtp.port, secure: false, user: USER },
  };
  const checked = await servers.check(settings.imap, settings.smtp);
  t.equal(checked.imap.target.address, '127.0.0.1');
  t.equal(checked.imap.target.servername, 'imap.rebind.invalid', 'the certificate would be checked for the name typed');

  const client = await openImap(checked.imap, { user: USER, pass: PASSWORD });
  t.ok(client.usable, 'IMAP logged in at the checked address');
  await closeImap(client);
  await new SmtpTransport().verify({ smtp: checked.smtp, secret: { kind: 'password', imapPassword: PASSWORD, smtpPassword: PASSWORD } });
  t.pass('SMTP logged in at the checked address');
  t.same(Object.fromEntries(lookups), { 'imap.rebind.invalid': 1, 'smtp.rebind.invalid': 1 }, 'each name looked up once, by the guard only');

  await t.rejects(servers.check(settings.imap, settings.smtp), { code: 'HOST_NOT_ALLOWED' }, 'the next use sees the rebound answer and refuses it');
});
