import t from 'tap';
import { createServer, type Server } from 'node:net';
import { HOST_NOT_ALLOWED_MESSAGE } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import emailService from '../src/app.js';
import { credentialsContext } from '../src/domain/credentials.js';
import { FAILED_LOGINS_PER_USER } from '../src/domain/login-attempts.js';
import { eventually } from './fixtures/imap-peer.js';
import { startPlainImapPeer } from './fixtures/plain-peers.js';
import { startSmtpPeer } from './fixtures/smtp-peer.js';

// Every spelling the attack reached a loopback listener with, and the other internal ranges.
const SPELLINGS = [
  '127.0.0.1',
  '2130706433',
  '127.1',
  '0x7f000001',
  '0177.0.0.1',
  '0',
  '::ffff:127.0.0.1',
  'localhost',
  '[::1]',
  '::1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:127.0.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.0.1',
  '224.0.0.1',
  '255.255.255.255',
];

/** A listener on loopback (IPv4 and, where the machine has it, IPv6) that only counts who reaches it. */
async function countingListener(): Promise<{ port: number; accepted: () => number; close: () => Promise<void> }> {
  let accepted = 0;
  const servers: Server[] = [];
  const open = (host: string, port: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer((socket) => {
        accepted++;
        socket.destroy();
      });
      server.once('error', reject);
      server.listen(port, host, () => resolve(server));
    });
  const v4 = await open('127.0.0.1', 0);
  servers.push(v4);
  const port = (v4.address() as { port: number }).port;
  await open('::1', port).then(
    (server) => servers.push(server),
    () => {},
  );
  return {
    port,
    accepted: () => accepted,
    close: () => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(() => {}),
  };
}

const body = (imap: { host: string; port: number }, smtp: { host: string; port: number }, password = 'una-clave') => ({
  provider: 'imap',
  credentials: {
    email: 'ana@example.com',
    imap: { ...imap, secure: false, user: 'ana@example.com', password },
    smtp: { ...smtp, secure: false, user: 'ana@example.com', password },
  },
});

t.test('ALLOWED_PRIVATE_ADDRESSES unset: every spelling of an internal host answers 400 and nothing is connected', async (t) => {
  const listener = await countingListener();
  t.teardown(listener.close);
  const platform = await createTestPlatform(t);
  t.equal(platform.config.ALLOWED_PRIVATE_ADDRESSES, '', 'no private address allowed');
  const app = await buildServiceApp(t, emailService, platform);
  const auth = { authorization: signToken(app).authorization };

  for (const host of SPELLINGS) {
    for (const url of ['/emails/integrations/test', '/emails/integrations']) {
      const res = await app.inject({ method: 'POST', url, headers: auth, payload: body({ host, port: listener.port }, { host, port: listener.port }) });
      t.equal(res.statusCode, 400, `${url} ${host}: 400`);
      t.match(res.json(), { code: 'HOST_NOT_ALLOWED', message: HOST_NOT_ALLOWED_MESSAGE });
    }
    // One internal host is enough: the public-looking other one is not even tried.
    const mixed = await app.inject({
      method: 'POST',
      url: '/emails/integrations/test',
      headers: auth,
      payload: body({ host: '8.8.8.8', port: 9 }, { host, port: listener.port }),
    });
    t.equal(mixed.json().message, HOST_NOT_ALLOWED_MESSAGE, `SMTP at ${host} with a public IMAP host: refused`);
  }
  t.same((await app.inject({ url: '/emails/integrations', headers: auth })).json(), [], 'no account stored');
  t.equal(listener.accepted(), 0, 'no connection reached the listener');
  t.comment(`trust private-hosts: ${SPELLINGS.length} spellings, ${listener.accepted()} connections to private addresses`);
});

t.test('a saved account whose host now points inside the network stops, and its card says why', async (t) => {
  const listener = await countingListener();
  t.teardown(listener.close);
  const platform = await createTestPlatform(t);
  // Saved while its host answered a public address; its DNS now answers loopback.
  const userId = '00000000-0000-4000-8000-0000000000a1';
  const sealed = platform.secrets.seal(JSON.stringify({ kind: 'password', imapPassword: 'x', smtpPassword: 'x' }), credentialsContext(userId));
  await platform.db.sql`
    insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user,
      smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc)
    values (${userId}, 'imap', 'ana@example.com', 'localhost', ${listener.port}, false, 'ana',
      'localhost', ${listener.port}, false, 'ana', ${sealed})`;
  const app = await buildServiceApp(t, emailService, platform);
  const auth = { authorization: signToken(app, userId).authorization };
  const [card] = await eventually('the account marked disconnected', async () => {
    const accounts = (await app.inject({ url: '/emails/integrations', headers: auth })).json() as { connected: boolean; error: string | null }[];
    return accounts[0] && !accounts[0].connected && accounts;
  });
  t.match(card, { connected: false, error: HOST_NOT_ALLOWED_MESSAGE });
  t.equal(listener.accepted(), 0, 'the watcher connected nowhere');
});

t.test('wrong passwords through the form: 429 with Retry-After after 10 failures per user', async (t) => {
  const imap = await startPlainImapPeer({ refuseLogins: true });
  t.teardown(() => imap.close());
  const smtp = await startSmtpPeer({ users: { 'ana@example.com': 'la-buena' } });
  t.teardown(() => smtp.close());
  // The peers are on loopback: allowed, as an operator allows a LAN mail server.
  const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
  const app = await buildServiceApp(t, emailService, platform);
  const auth = { authorization: signToken(app).authorization };
  const attempt = (url: string) =>
    app.inject({ method: 'POST', url, headers: auth, payload: body({ host: imap.host, port: imap.port }, { host: smtp.host, port: smtp.port }, 'mala') });

  let failures = 0;
  let limited: Awaited<ReturnType<typeof attempt>> | undefined;
  for (let i = 1; i <= 11; i++) {
    const res = await attempt(i % 2 === 0 ? '/emails/integrations' : '/emails/integrations/test');
    if (res.statusCode === 429) {
      limited = res;
      break;
    }
    t.equal(res.statusCode, 400, `attempt ${i}: the server refused the password`);
    t.match(res.json().message, /rechazó el usuario o la contraseña/);
    failures++;
  }
  t.equal(failures, FAILED_LOGINS_PER_USER, 'exactly the allowed failures');
  t.ok(limited, '429 within 11 attempts');
  const retryAfter = Number(limited?.headers['retry-after']);
  t.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After: ${retryAfter} s`);
  t.match(limited?.json(), { statusCode: 429, code: 'MAIL_LOGIN_LIMIT', message: /^Demasiados intentos fallidos de acceso al correo\. Vuelve a intentarlo en 15 minutos$/ });
  const connections = imap.connections;
  t.equal((await attempt('/emails/integrations')).statusCode, 429, 'connecting the account is limited too');
  t.equal(imap.connections, connections, 'a limited attempt opens no connection');
  t.comment(`trust mail-logins: 429 after ${failures} failed logins`);

  // Another user is not this user's limit (the mailbox's, counted across users, is not reached: see mail-login-limits.test.ts).
  const other = { authorization: signToken(app).authorization };
  const res = await app.inject({ method: 'POST', url: '/emails/integrations/test', headers: other, payload: body({ host: imap.host, port: imap.port }, { host: smtp.host, port: smtp.port }, 'mala') });
  t.equal(res.statusCode, 400, 'another user still gets an answer from the server');
});
