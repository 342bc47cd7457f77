import t from 'tap';
import { createPlatform, hashResetToken } from '@asistente/kit';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import { startSmtpPeer } from '../../email/test/fixtures/smtp-peer.js';
import authService from '../src/app.js';
import { LINK_EXPIRED, LINK_USED } from '../src/domain/password-resets.service.js';
import { FORGOT_ANSWER } from '../src/routes/password-reset.js';

const smtp = await startSmtpPeer({ users: { sistema: 'clave-smtp' } });
t.teardown(() => smtp.close());
const platform = await createTestPlatform(t, {
  config: {
    SMTP_URL: `smtp://sistema:clave-smtp@${smtp.host}:${smtp.port}`,
    MAIL_FROM: 'Mi Asistente.IA <no-reply@panaderia.test>',
    PUBLIC_URL: 'https://app.panaderia.test/',
    RATE_LIMIT_PASSWORD_RESET_MAX: 3,
  },
});
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;

let n = 0;
const uniqueEmail = () => `olvido${++n}.${Date.now()}@ejemplo.es`;
const post = (url: string, payload: object, authorization?: string) =>
  app.inject({ method: 'POST', url, payload, headers: authorization ? { authorization } : {} });
const me = (token: string) => app.inject({ url: '/auth/me', headers: { authorization: `Bearer ${token}` } });

async function registered(password = 'secreto1') {
  const email = uniqueEmail();
  const res = await post('/auth/register', { firstName: 'Marta', lastName: 'Gil', email, password });
  return { email, token: res.json().token as string };
}

/** The first mail to `email` after the `after`-th one (mails of earlier requests may still be arriving). */
async function mailTo(email: string, after: number) {
  for (let count = after + 1; ; count++) {
    const mail = await smtp.waitFor(count);
    if (mail.envelope.to.includes(email)) return mail;
  }
}

/** Asks for a link and reads it from the mail the SMTP peer received. */
async function mailedLink(email: string): Promise<{ url: URL; token: string }> {
  const before = smtp.received.length;
  t.equal((await post('/auth/password/forgot', { email })).statusCode, 202);
  const mail = await mailTo(email, before);
  const found = /https:\/\/app\.panaderia\.test\/restablecer\?token=[A-Za-z0-9_-]+/.exec(mail.parsed.text ?? '');
  if (!found) throw new Error('no reset link in the mail');
  const url = new URL(found[0]);
  return { url, token: url.searchParams.get('token')! };
}

t.test('the API says a mailer is configured', async (t) => {
  const res = await app.inject({ url: '/auth/password/reset-available' });
  t.same(res.json(), { available: true });
});

t.test('a known address gets a Spanish mail with a link to PUBLIC_URL/restablecer; only its hash is stored', async (t) => {
  const { email } = await registered();
  const before = smtp.received.length;
  const res = await post('/auth/password/forgot', { email: email.toUpperCase() });
  t.equal(res.statusCode, 202);
  t.same(res.json(), { message: FORGOT_ANSWER });
  const mail = await mailTo(email, before);
  t.same(mail.envelope.to, [email]);
  t.equal(mail.user, 'sistema', 'signed in with the credentials of SMTP_URL');
  t.same(mail.parsed.from?.value, [{ name: 'Mi Asistente.IA', address: 'no-reply@panaderia.test' }], 'MAIL_FROM');
  t.equal(mail.parsed.subject, 'Restablece tu contraseña de Mi Asistente.IA');
  t.match(mail.parsed.text, /Hola Marta:/);
  t.match(mail.parsed.text, /30 minutos/);
  const token = /restablecer\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')![1]!;
  t.ok(token.length >= 43, '256 random bits');
  t.match(mail.parsed.html, `href="https://app.panaderia.test/restablecer?token=${token}"`);
  const rows = await sql<{ tokenHash: string; expiresAt: Date; createdAt: Date }[]>`
    select r.token_hash, r.expires_at, r.created_at from auth.password_resets r join auth.users u on u.id = r.user_id where u.email = ${email}`;
  t.equal(rows.length, 1);
  t.equal(rows[0]!.tokenHash, hashResetToken(token), 'the SHA-256 of the token');
  t.not(rows[0]!.tokenHash, token, 'never the token itself');
  const minutes = (rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()) / 60_000;
  t.ok(minutes > 29.9 && minutes < 30.1, `valid 30 minutes (${minutes.toFixed(2)})`);
});

t.test('an unknown address gets the same answer and no mail', async (t) => {
  const unknown = await post('/auth/password/forgot', { email: uniqueEmail() });
  t.equal(unknown.statusCode, 202);
  t.same(unknown.json(), { message: FORGOT_ANSWER });
  const count = smtp.received.length;
  // The unknown address's request was answered after its lookup: a later known one's mail is the next to arrive.
  const { email } = await registered();
  await mailedLink(email);
  t.equal(smtp.received.length, count + 1, 'one mail, for the known address');
  t.same(smtp.received.at(-1)!.envelope.to, [email]);
  const sentBefore = smtp.received.length;

  const timed = async (address: string) => {
    const start = performance.now();
    await post('/auth/password/forgot', { email: address });
    return performance.now() - start;
  };
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const known: number[] = [];
  const unknownTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    known.push(await timed((await registered()).email));
    unknownTimes.push(await timed(uniqueEmail()));
  }
  t.comment(`median answer: known ${median(known).toFixed(1)} ms, unknown ${median(unknownTimes).toFixed(1)} ms`);
  t.ok(median(known) < median(unknownTimes) + 50, 'a known address answers about as fast (the mail goes out after the answer)');
  await smtp.waitFor(sentBefore + known.length);
});

t.test('bad input is a 400 in Spanish', async (t) => {
  const cases: [string, object, string][] = [
    ['/auth/password/forgot', {}, 'El correo es requerido'],
    ['/auth/password/forgot', { email: 'no-es-correo' }, 'Correo electrónico inválido'],
    ['/auth/password/reset', { newPassword: 'NuevaClave-2026' }, 'Falta el código del enlace'],
    ['/auth/password/reset', { token: 'x' }, 'La nueva contraseña es requerida'],
    ['/auth/password/reset', { token: 'no-existe', newPassword: 'NuevaClave-2026' }, LINK_USED],
  ];
  for (const [url, payload, message] of cases) {
    const res = await post(url, payload);
    t.equal(res.statusCode, 400, message);
    t.equal(res.json().message, message);
  }
});

t.test('a link sets the new password once, ends every session and follows the password rules', async (t) => {
  const { email, token: session } = await registered();
  const other = (await post('/auth/login', { email, password: 'secreto1' })).json().token as string;
  const { token } = await mailedLink(email);

  const weak = await post('/auth/password/reset', { token, newPassword: '123456' });
  t.equal(weak.statusCode, 400);
  t.match(weak.json().message, /demasiado común/);
  const short = await post('/auth/password/reset', { token, newPassword: 'abc' });
  t.equal(short.json().message, 'Mínimo 6 caracteres', 'the house rules, and the link still works after a refused password');

  const done = await post('/auth/password/reset', { token, newPassword: 'Harina-y-Masa-7' });
  t.equal(done.statusCode, 200);
  t.same(done.json(), { success: true });
  t.equal((await me(session)).statusCode, 401, 'the session that registered ended');
  t.equal((await me(other)).statusCode, 401, 'and the other one');
  t.equal((await post('/auth/login', { email, password: 'secreto1' })).statusCode, 401, 'the old password no longer works');
  const fresh = await post('/auth/login', { email, password: 'Harina-y-Masa-7' });
  t.equal(fresh.statusCode, 200, 'the new one does');
  t.equal((await me(fresh.json().token)).statusCode, 200, 'a session opened after the reset works');

  const again = await post('/auth/password/reset', { token, newPassword: 'Otra-Clave-99' });
  t.equal(again.statusCode, 400, 'a spent link');
  t.same(again.json().message, LINK_USED);
  t.equal((await post('/auth/login', { email, password: 'Harina-y-Masa-7' })).statusCode, 200, 'and nothing changed');
  // The security log: the reset, once (the spent link wrote nothing), with no password nor link in it.
  const lines = await sql<{ data: { activity: string } }[]>`
    select o.data from auth.outbox o join auth.users u on u.id = o.user_id
    where lower(u.email) = lower(${email}) and o.type = 'security.activity.recorded' and o.data->>'activity' = 'password.reset'`;
  t.equal(lines.length, 1);
  t.notMatch(JSON.stringify(lines), new RegExp(`Harina|${token}`));
});

t.test('a reset spends the other links of the user too', async (t) => {
  const { email } = await registered();
  const first = await mailedLink(email);
  const second = await mailedLink(email);
  t.equal((await post('/auth/password/reset', { token: second.token, newPassword: 'Segunda-Clave-1' })).statusCode, 200);
  const old = await post('/auth/password/reset', { token: first.token, newPassword: 'Primera-Clave-1' });
  t.equal(old.statusCode, 400);
  t.equal(old.json().message, LINK_USED);
});

t.test('an expired link is a 400 and changes nothing', async (t) => {
  const { email } = await registered();
  const { token } = await mailedLink(email);
  await sql`update auth.password_resets set expires_at = now() - interval '1 second' where token_hash = ${hashResetToken(token)}`;
  const res = await post('/auth/password/reset', { token, newPassword: 'Caducada-Clave-1' });
  t.equal(res.statusCode, 400);
  t.equal(res.json().code, 'RESET_LINK_EXPIRED');
  t.equal(res.json().message, LINK_EXPIRED);
  t.equal((await post('/auth/login', { email, password: 'secreto1' })).statusCode, 200, 'the password is unchanged');
});

t.test('two uses of one link at once: exactly one sets its password', async (t) => {
  const { email } = await registered();
  const { token } = await mailedLink(email);
  const answers = await Promise.all([
    post('/auth/password/reset', { token, newPassword: 'Carrera-Uno-11' }),
    post('/auth/password/reset', { token, newPassword: 'Carrera-Dos-22' }),
  ]);
  t.same(answers.map((a) => a.statusCode).sort(), [200, 400]);
  const winner = answers[0]!.statusCode === 200 ? 'Carrera-Uno-11' : 'Carrera-Dos-22';
  t.equal((await post('/auth/login', { email, password: winner })).statusCode, 200);
});

t.test('forgot is rate-limited per address', async (t) => {
  const email = uniqueEmail();
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await post('/auth/password/forgot', { email })).statusCode);
  t.same(statuses, [202, 202, 202, 429]);
  t.match((await post('/auth/password/forgot', { email: email.toUpperCase() })).json().message, /Demasiados intentos/, 'in any case');
  t.equal((await post('/auth/password/forgot', { email: uniqueEmail() })).statusCode, 202, 'other addresses unaffected');
});

t.test('a reset ends the sessions in another replica of the service too', { skip: !process.env.DATABASE_URL && 'two replicas share a PostgreSQL database only' }, async (t) => {
  const replica = await createPlatform(platform.config, 'auth-replica', { log: platform.log });
  t.teardown(() => replica.close());
  const other = await buildServiceApp(t, authService, replica);
  const { email } = await registered();
  const inReplica = (await other.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'secreto1' } })).json().token as string;
  const meThere = () => other.inject({ url: '/auth/me', headers: { authorization: `Bearer ${inReplica}` } });
  t.equal((await meThere()).statusCode, 200);
  const { token } = await mailedLink(email);
  t.equal((await post('/auth/password/reset', { token, newPassword: 'Replica-Clave-3' })).statusCode, 200);
  t.equal((await meThere()).statusCode, 401, 'the other replica refuses the session at once');
});

t.test('without SMTP_URL nothing is mailed and the API says so', async (t) => {
  const bare = await createTestPlatform(t);
  const plain = await buildServiceApp(t, authService, bare);
  t.same((await plain.inject({ url: '/auth/password/reset-available' })).json(), { available: false });
  const email = uniqueEmail();
  await plain.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Luis', lastName: 'Paz', email, password: 'secreto1' } });
  const res = await plain.inject({ method: 'POST', url: '/auth/password/forgot', payload: { email } });
  t.equal(res.statusCode, 202, 'the same answer');
  t.same(res.json(), { message: FORGOT_ANSWER });
  const [row] = await bare.db.sql<{ n: number }[]>`select count(*)::int as n from auth.password_resets`;
  t.equal(row!.n, 0, 'no link made');
});
