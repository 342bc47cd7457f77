// Refused mail logins are limited per target mailbox, never per host: other tenants' guesses never lock a mailbox they do not guess at.
import t from 'tap';
import { FailureWindow } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import emailService from '../src/app.js';
import { MailConnectError } from '../src/adapters/imap-client.js';
import { FAILED_LOGINS_PER_MAILBOX, FAILED_LOGINS_PER_USER, LoginAttempts } from '../src/domain/login-attempts.js';
import { startPlainImapPeer } from './fixtures/plain-peers.js';
import { startSmtpPeer } from './fixtures/smtp-peer.js';

// One server for every mailbox (as imap.gmail.com is): it knows Eva's password and refuses anything else at
// once, with no growing delay, so each attempt is a verdict and not a timeout.
const EVA = { user: 'eva@victima.example', password: 'la-de-eva' };
const imap = await startPlainImapPeer({ accepts: (user, password) => user === EVA.user && password === EVA.password });
t.teardown(() => imap.close());
const smtp = await startSmtpPeer({ users: { [EVA.user]: EVA.password } });
t.teardown(() => smtp.close());
// The peers are on loopback: allowed, as an operator allows a LAN mail server.
const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const app = await buildServiceApp(t, emailService, platform);

const body = (user: string, password: string) => ({
  provider: 'imap',
  credentials: {
    email: user,
    imap: { host: imap.host, port: imap.port, secure: false, user, password },
    smtp: { host: smtp.host, port: smtp.port, secure: false, user, password },
  },
});
/** A refused password says so; any other failure (a timeout) would not count and must not pass for one. */
const verdict = (res: { statusCode: number; json: () => { message?: string } }) =>
  `${res.statusCode} ${/rechazó el usuario o la contraseña/.test(res.json().message ?? '') ? 'refused' : (res.json().message ?? '')}`;
const tenant = () => ({ authorization: signToken(app).authorization });
const tryLogin = (headers: { authorization: string }, user: string, password: string) =>
  app.inject({ method: 'POST', url: '/emails/integrations/test', headers, payload: body(user, password) });

t.test("four tenants guessing at their own mailboxes never lock another tenant's mailbox on the same server", async (t) => {
  const guessers = Array.from({ length: 4 }, (_, i) => ({ headers: tenant(), mailbox: `buzon${i}@victima.example` }));
  const verdicts = await Promise.all(
    guessers.map(async ({ headers, mailbox }) => {
      const answers: string[] = [];
      for (let i = 0; i < FAILED_LOGINS_PER_USER; i++) answers.push(verdict(await tryLogin(headers, mailbox, `intento-${i}`)));
      return { answers, after: await tryLogin(headers, mailbox, 'uno-mas') };
    }),
  );
  const refused = verdicts.flatMap((v) => v.answers);
  t.equal(refused.length, 4 * FAILED_LOGINS_PER_USER);
  t.same(new Set(refused), new Set(['400 refused']), `${refused.length} refused logins on one server, every one a refusal by the server`);
  for (const { after } of verdicts) {
    // Each guesser still meets its own limit.
    t.equal(after.statusCode, 429, 'the guesser itself is stopped after its 10');
    t.match(after.json(), { code: 'MAIL_LOGIN_LIMIT', message: /^Demasiados intentos fallidos de acceso al correo\. Vuelve a intentarlo en 15 minutos$/ });
    t.ok(Number(after.headers['retry-after']) > 0, 'with Retry-After');
  }

  const eva = tenant();
  const wrong = await tryLogin(eva, EVA.user, 'me-equivoque');
  t.equal(verdict(wrong), '400 refused', "a fifth tenant's wrong password is the server's answer, not a 429");
  const right = await tryLogin(eva, EVA.user, EVA.password);
  t.equal(right.statusCode, 200, "and the fifth tenant's mailbox logs in");
  t.comment(`trust mail-logins: ${refused.length} refused logins by 4 tenants on one server; another tenant's mailbox on it answered ${right.statusCode}`);
});

t.test('the per-mailbox limit stops guessing at one mailbox across users, and only at that mailbox', async (t) => {
  const victim = 'objetivo@victima.example';
  // Two users, each within its own limit, guess at one mailbox; the second writes it in other letters.
  const spellings = [victim, victim.toUpperCase()];
  const answers: string[] = [];
  for (const [i, spelling] of spellings.entries()) {
    const headers = tenant();
    for (let n = 0; n < FAILED_LOGINS_PER_MAILBOX / spellings.length; n++) answers.push(verdict(await tryLogin(headers, spelling, `clave-${i}-${n}`)));
  }
  t.same(new Set(answers), new Set(['400 refused']), `${answers.length} guesses refused by the server`);

  const third = tenant();
  const connections = imap.connections;
  const limited = await tryLogin(third, victim, 'otra-mas');
  t.equal(limited.statusCode, 429, 'a third user with no failure of its own meets the mailbox limit');
  t.match(limited.json(), { statusCode: 429, code: 'MAIL_LOGIN_LIMIT', message: /^Demasiados intentos fallidos de acceso al correo\. Vuelve a intentarlo en (15|14) minutos$/ });
  const retryAfter = Number(limited.headers['retry-after']);
  t.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After: ${retryAfter} s`);
  t.equal(imap.connections, connections, 'the limited guess opened no connection');
  t.equal((await tryLogin(third, victim.toUpperCase(), 'otra-mas')).statusCode, 429, 'in any spelling of the username');

  const own = await tryLogin(third, 'tercero@victima.example', 'su-clave');
  t.equal(verdict(own), '400 refused', "the same user's own mailbox on that server is still answered by the server");
  t.equal((await tryLogin(tenant(), EVA.user, EVA.password)).statusCode, 200, "another tenant's mailbox on that server still logs in");
  t.comment(`trust mail-logins: one mailbox stopped after ${FAILED_LOGINS_PER_MAILBOX} refused logins from 2 users`);
});

t.test('on the database: attempts in flight count, per mailbox and never per host, and no address is stored', async (t) => {
  const attempts = new LoginAttempts(new FailureWindow(platform.db.sql, 'email.login_failures'));
  const refused = () => Promise.reject(new MailConnectError('IMAP', 'el servidor rechazó el usuario o la contraseña', true));
  const unreachable = () => Promise.reject(new MailConnectError('IMAP', 'no respondió a tiempo'));
  const host = 'imap.compartido.example';
  const target = { host, user: 'blanco@compartido.example' };
  const users = Array.from({ length: 8 }, (_, i) => `00000000-0000-4000-8000-00000000020${i}`);

  // Failures that are not a refused password (a timeout, a good login) count for nothing.
  for (let i = 0; i < 12; i++) await t.rejects(attempts.limit(users[0]!, [target], unreachable), MailConnectError);
  t.equal(await attempts.limit(users[0]!, [target], async () => 'ok'), 'ok');

  // All at once: every user guesses 5 times at the target and 5 times at its own mailbox on the same host.
  const outcomes = async (runs: Promise<unknown>[]) =>
    (await Promise.allSettled(runs)).map((o) => (o.status === 'rejected' ? (o.reason as { statusCode?: number }) : {}));
  const [atTarget, atOwn] = await Promise.all([
    outcomes(users.flatMap((user) => Array.from({ length: 5 }, () => attempts.limit(user, [{ ...target, host: 'IMAP.Compartido.example.' }], refused)))),
    outcomes(users.flatMap((user, i) => Array.from({ length: 5 }, () => attempts.limit(user, [{ host, user: `propio${i}@compartido.example` }], refused)))),
  ]);
  const tried = (reasons: { statusCode?: number }[]) => reasons.filter((r) => r instanceof MailConnectError).length;
  t.equal(tried(atTarget), FAILED_LOGINS_PER_MAILBOX, `${FAILED_LOGINS_PER_MAILBOX} guesses reached the target mailbox, in any spelling of its host`);
  t.equal(atTarget.filter((r) => r.statusCode === 429).length, users.length * 5 - FAILED_LOGINS_PER_MAILBOX, 'the rest answered 429 without trying');
  t.equal(tried(atOwn), users.length * 5, 'every login to another mailbox on the same host was tried');

  const keys = await platform.db.sql<{ key: string }[]>`select distinct key from email.login_failures`;
  t.notOk(keys.some(({ key }) => /compartido|victima|blanco|propio|@/i.test(key)), 'no host or username in clear');
  t.notOk(keys.some(({ key }) => key.startsWith('host:')), 'no count per host');
});
