// The mail transport port's conformance suite against every transport: SMTP (nodemailer) against smtp-server.
import t from 'tap';
import { HostGuard } from '@asistente/kit';
import { SmtpTransport } from '../src/adapters/smtp-transport.js';
import { MailServers } from '../src/domain/mail-servers.js';
import { freePort } from './fixtures/dovecot.js';
import { startSmtpPeer } from './fixtures/smtp-peer.js';
import { transportConformance } from './support/transport-conformance.js';

// The peer listens on loopback: the operator's own network, as ALLOWED_PRIVATE_ADDRESSES would say.
const servers = new MailServers(new HostGuard('127.0.0.1'));
const USER = 'yo@ejemplo.com';
const PASSWORD = 'clave-de-envio';

async function loginAt(port: number, password: string) {
  const settings = { host: '127.0.0.1', port, secure: false, user: USER };
  const { smtp } = await servers.check(settings, settings);
  return { smtp, secret: { kind: 'password' as const, imapPassword: password, smtpPassword: password } };
}

await transportConformance(t, 'SMTP (smtp-server)', async (t) => {
  const peer = await startSmtpPeer({ users: { [USER]: PASSWORD } });
  t.teardown(() => peer.close());
  return {
    transport: new SmtpTransport(),
    login: await loginAt(peer.port, PASSWORD),
    refused: await loginAt(peer.port, 'otra-clave'),
    // Nothing listens there: the port was free a moment ago.
    unreachable: await loginAt(await freePort(), PASSWORD),
    received: (count) => peer.waitFor(count),
  };
});
