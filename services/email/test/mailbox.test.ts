import t from 'tap';
import { createServer } from 'node:net';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import emailService from '../src/app.js';
import { startDovecot, freePort } from './fixtures/dovecot.js';
import { eventually, otherMailApp, rawMail } from './fixtures/imap-peer.js';
import { startSmtpPeer } from './fixtures/smtp-peer.js';

const USER = 'ana@example.com';
const PASSWORD = 'secreto-imap';

const dovecot = await startDovecot({ users: [{ user: USER, password: PASSWORD }] });
t.teardown(() => dovecot.stop());
const smtp = await startSmtpPeer({ users: { [USER]: PASSWORD } });
t.teardown(() => smtp.close());

// Mail already in the mailbox before the account is connected: the first sync's window.
const phone = await otherMailApp(dovecot.host, dovecot.port, USER, PASSWORD);
t.teardown(async () => {
  await phone.logout().catch(() => {});
  phone.close();
});
const longBody = 'Hola Ana, te escribo para confirmar la reunión del jueves a las diez en la oficina.';
await phone.append('INBOX', rawMail({ from: 'Luis <luis@cliente.com>', to: USER, subject: 'Reunión del jueves', body: longBody, messageId: '<reunion@cliente.com>' }));
await phone.append(
  'INBOX',
  rawMail({
    from: 'boletin@tienda.com',
    to: USER,
    subject: 'Ofertas',
    body: '',
    html: '<p onclick="steal()">Hola<script>alert(1)</script> <img src="https://tracker.example/p.gif"> <a href="https://tienda.com">ver</a></p>',
  }),
  ['\\Seen'],
);
const withAttachment = [
  `From: Marta <marta@cliente.com>`,
  `To: ${USER}`,
  'Subject: Presupuesto',
  `Date: ${new Date().toUTCString()}`,
  'Message-ID: <presupuesto@cliente.com>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Adjunto el presupuesto.',
  '--b1',
  'Content-Type: application/pdf; name="presupuesto.pdf"',
  'Content-Disposition: attachment; filename="presupuesto.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('%PDF-1.4 presupuesto de prueba').toString('base64'),
  '--b1--',
  '',
].join('\r\n');
await phone.append('INBOX', withAttachment);
// Broken MIME (boundary never closed, garbage encoding): kept with what can be read.
await phone.append(
  'INBOX',
  'From: raro@x.com\r\nSubject: Roto\r\nContent-Type: multipart/mixed; boundary="zz"\r\nContent-Transfer-Encoding: x-desconocido\r\n\r\n--zz\r\nContent-Type: text/plain; charset=no-existe\r\n\r\n\u0000texto\r\n',
);
await phone.append('Sent', rawMail({ from: USER, to: 'luis@cliente.com', subject: 'Enviado antes', body: 'Hola Luis' }), ['\\Seen']);

// The local Dovecot and SMTP peer are on loopback: allowed, as an operator allows a LAN mail server.
const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const app = await buildServiceApp(t, emailService, platform);
const owner = signToken(app);
const auth = { authorization: owner.authorization };

const imapBody = (overrides: { password?: string; port?: number; host?: string } = {}) => ({
  provider: 'imap',
  credentials: {
    email: USER,
    imap: { host: overrides.host ?? dovecot.host, port: overrides.port ?? dovecot.port, secure: false, user: USER, password: overrides.password ?? PASSWORD },
    smtp: { host: smtp.host, port: smtp.port, secure: false, user: USER, password: PASSWORD },
  },
});

interface Listed {
  data: { id: string; subject: string; preview: string; isRead: boolean; hasAttachments: boolean; from: string }[];
  pagination: { total: number };
  unread: number;
}
const list = async (query = '') => (await app.inject({ url: `/emails${query}`, headers: auth })).json<Listed>();

t.test('a wrong password or an unreachable host answers 400 in Spanish, quickly, and stores nothing', async (t) => {
  let started = Date.now();
  const wrong = await app.inject({ method: 'POST', url: '/emails/integrations', headers: auth, payload: imapBody({ password: 'mala' }) });
  t.equal(wrong.statusCode, 400);
  t.match(wrong.json().message, /^No se pudo conectar al servidor IMAP: el servidor rechazó el usuario o la contraseña/);

  const closed = await freePort();
  const refused = await app.inject({ method: 'POST', url: '/emails/integrations', headers: auth, payload: imapBody({ port: closed }) });
  t.equal(refused.statusCode, 400);
  t.match(refused.json().message, /^No se pudo conectar al servidor IMAP: .*rechazó la conexión/);

  // A peer that accepts and never greets: the deadline answers, the request does not hang.
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise((resolve) => silent.close(resolve)));
  const silentPort = (silent.address() as { port: number }).port;
  const mute = await app.inject({ method: 'POST', url: '/emails/integrations', headers: auth, payload: imapBody({ port: silentPort }) });
  t.equal(mute.statusCode, 400);
  t.match(mute.json().message, /^No se pudo conectar al servidor IMAP: .*no respondió a tiempo/);
  t.ok(Date.now() - started < 15_000, 'a silent server answers within 15 s');
  t.ok(Date.now() - started < 15_000, 'wrong password and refused port answer within 15 s');
  started = Date.now();

  const tested = await app.inject({ method: 'POST', url: '/emails/integrations/test', headers: auth, payload: imapBody() });
  t.same(tested.json(), { success: true }, 'probar conexión: both logins succeed');

  const badSmtp = imapBody();
  badSmtp.credentials.smtp.password = 'mala';
  const smtpRefused = await app.inject({ method: 'POST', url: '/emails/integrations', headers: auth, payload: badSmtp });
  t.equal(smtpRefused.statusCode, 400);
  t.match(smtpRefused.json().message, /^No se pudo conectar al servidor SMTP: /);

  // A silent SMTP server beside a good IMAP one: still one deadline, not two.
  started = Date.now();
  const silentSmtp = imapBody();
  silentSmtp.credentials.smtp.port = silentPort;
  const smtpMute = await app.inject({ method: 'POST', url: '/emails/integrations', headers: auth, payload: silentSmtp });
  t.equal(smtpMute.statusCode, 400);
  t.match(smtpMute.json().message, /^No se pudo conectar al servidor SMTP: /);
  t.ok(Date.now() - started < 15_000, 'a silent SMTP server answers within 15 s');

  const invalid = await app.inject({ method: 'POST', url: '/emails/integrations', headers: auth, payload: { provider: 'imap', credentials: { email: 'no-es-correo' } } });
  t.equal(invalid.statusCode, 400);

  t.same((await app.inject({ url: '/emails/integrations', headers: auth })).json(), []);
  const [count] = await platform.db.sql<{ n: string }[]>`select count(*) as n from email.accounts`;
  t.equal(Number(count!.n), 0, 'nothing stored');
});

let accountId = '';

t.test('connect: both servers checked, credentials sealed, never in a response; first sync fills the folders', async (t) => {
  const connected = await app.inject({ method: 'POST', url: '/emails/integrations', headers: auth, payload: imapBody() });
  t.equal(connected.statusCode, 201, connected.body);
  const account = connected.json<{ id: string; provider: string; email: string; connected: boolean }>();
  accountId = account.id;
  t.match(account, { provider: 'imap', email: USER, connected: true });
  t.notMatch(connected.body, PASSWORD);
  const [row] = await platform.db.sql<{ credentialsEnc: string }[]>`select credentials_enc from email.accounts`;
  t.match(row!.credentialsEnc, /^v1:/);
  t.notMatch(row!.credentialsEnc, PASSWORD);

  const inbox = await eventually('the first sync', async () => {
    const page = await list();
    return page.pagination.total === 4 && page;
  });
  const meeting = inbox.data.find((m) => m.subject === 'Reunión del jueves')!;
  t.equal(meeting.preview, longBody.slice(0, 50), '50-character preview');
  t.equal(meeting.isRead, false);
  t.equal(inbox.unread, 3, 'unread counts the inbox');
  t.ok(inbox.data.find((m) => m.subject === 'Presupuesto')?.hasAttachments);
  t.ok(inbox.data.find((m) => m.subject === 'Roto'), 'an unparseable mail is kept');
  const sent = await eventually('the Sent folder', async () => (await list('?folder=sent')).data[0]);
  t.equal(sent.subject, 'Enviado antes');
  t.equal((await list('?search=presupu')).data.length, 1, 'search');
  t.equal((await list('?limit=2&page=2')).data.length, 2, 'pages');

  const integrations = await app.inject({ url: '/emails/integrations', headers: auth });
  t.match(integrations.json(), [{ id: accountId, provider: 'imap', email: USER, connected: true, error: null }]);
  t.notMatch(integrations.body, PASSWORD);

  const stranger = signToken(app);
  t.equal((await app.inject({ url: '/emails', headers: { authorization: stranger.authorization } })).json<Listed>().pagination.total, 0);
  t.equal((await app.inject({ url: `/emails/${meeting.id}`, headers: { authorization: stranger.authorization } })).statusCode, 404);
});

t.test('IDLE: a mail arriving on the server shows without asking; the read flag syncs both ways', async (t) => {
  await phone.append('INBOX', rawMail({ from: 'nuevo@cliente.com', to: USER, subject: 'Llega ahora', body: 'Nuevo' }));
  const arrived = await eventually('the new mail', async () => (await list()).data.find((m) => m.subject === 'Llega ahora'));
  const events = await platform.db.sql<{ messageId: string }[]>`select data->>'messageId' as "messageId" from email.outbox where type = 'email.message.received'`;
  t.equal(events.length, 5, "received: the first sync's 4 inbox mails and the one arriving while connected");
  t.ok(events.some((e) => e.messageId === arrived.id), 'the new one among them');

  // App → server.
  t.equal((await app.inject({ method: 'PUT', url: `/emails/${arrived.id}/read`, headers: auth })).statusCode, 200);
  const lock = await phone.getMailboxLock('INBOX');
  try {
    const seen = await phone.search({ seen: true, subject: 'Llega ahora' }, { uid: true });
    t.equal((seen || []).length, 1, 'seen on the server');
  } finally {
    lock.release();
  }
  // Server → app.
  const meeting = (await list()).data.find((m) => m.subject === 'Reunión del jueves')!;
  const lock2 = await phone.getMailboxLock('INBOX');
  try {
    await phone.messageFlagsAdd({ subject: 'Reunión del jueves' }, ['\\Seen']);
  } finally {
    lock2.release();
  }
  await eventually('the read flag from the phone', async () => (await list()).data.find((m) => m.id === meeting.id)?.isRead);
  t.pass('read in the app after reading on the phone');
});

t.test('a mail: sanitised HTML, remote images only when allowed, attachments downloadable', async (t) => {
  const page = await list();
  const promo = page.data.find((m) => m.subject === 'Ofertas')!;
  const detail = (await app.inject({ url: `/emails/${promo.id}`, headers: auth })).json<{ body: string; remoteImagesBlocked: boolean }>();
  t.notMatch(detail.body, /script|onclick|alert/);
  t.notMatch(detail.body, 'tracker.example');
  t.equal(detail.remoteImagesBlocked, true);
  t.match(detail.body, 'target="_blank"');
  const withImages = (await app.inject({ url: `/emails/${promo.id}?images=1`, headers: auth })).json<{ body: string }>();
  t.match(withImages.body, 'https://tracker.example/p.gif');

  const budget = page.data.find((m) => m.subject === 'Presupuesto')!;
  const full = (await app.inject({ url: `/emails/${budget.id}`, headers: auth })).json<{ attachments: { id: string; name: string; size: number }[]; from: string }>();
  t.match(full.attachments, [{ name: 'presupuesto.pdf', size: 30 }], 'the body and attachments fetched on first open');
  const [kept] = await platform.db.sql<{ bodyFetched: boolean }[]>`select body_fetched from email.messages where id = ${budget.id}`;
  t.equal(kept?.bodyFetched, true, 'and kept for the next open');
  const file = await app.inject({ url: `/emails/${budget.id}/attachments/${full.attachments[0]!.id}`, headers: auth });
  t.equal(file.statusCode, 200);
  t.equal(file.headers['content-type'], 'application/pdf');
  t.match(String(file.headers['content-disposition']), /attachment; filename\*=UTF-8''presupuesto\.pdf/);
  t.equal(file.body, '%PDF-1.4 presupuesto de prueba');
});

t.test('send, reply and forward go through SMTP with the right headers; a copy is filed in Sent', async (t) => {
  const sent = await app.inject({
    method: 'POST',
    url: '/emails/send',
    headers: auth,
    payload: {
      to: 'cliente@empresa.com',
      subject: 'Propuesta',
      body: 'Hola, mira https://ejemplo.com/oferta',
      attachments: [{ filename: 'nota.txt', contentType: 'text/plain', content: Buffer.from('nota').toString('base64') }],
      track: true,
    },
  });
  t.equal(sent.statusCode, 200, sent.body);
  const first = await smtp.waitFor(1);
  t.same(first.envelope, { from: USER, to: ['cliente@empresa.com'] });
  t.equal(first.parsed.subject, 'Propuesta');
  t.equal(first.parsed.attachments[0]?.filename, 'nota.txt');
  t.match(String(first.parsed.html), /\/api\/emails\/track\/open\//, 'tracking pixel');
  t.match(String(first.parsed.html), /\/api\/emails\/track\/click\//, 'rewritten link');
  await eventually('the copy in Sent', async () => (await list('?folder=sent')).data.find((m) => m.subject === 'Propuesta'));
  const sentEvents = await platform.db.sql`select 1 from email.outbox where type = 'email.message.sent'`;
  t.equal(sentEvents.length, 1);

  const accountId = (await app.inject({ url: '/emails/integrations', headers: auth })).json<{ id: string }[]>()[0]!.id;
  const chosen = await app.inject({ method: 'POST', url: '/emails/send', headers: auth, payload: { to: 'x@empresa.com', subject: 'Desde la cuenta', body: 'b', accountId } });
  t.equal(chosen.statusCode, 200, 'sent from the account asked for');
  const fromAccount = await smtp.waitFor(2);
  t.same(fromAccount.envelope.from, USER);
  t.notMatch(String(fromAccount.parsed.html), 'track', 'tracking off unless the account or the mail turns it on');
  const foreign = await app.inject({
    method: 'POST',
    url: '/emails/send',
    headers: { authorization: signToken(app).authorization },
    payload: { to: 'x@empresa.com', subject: 'Ajena', body: 'b', accountId },
  });
  t.equal(foreign.statusCode, 404, "another user's account");
  t.equal(foreign.json().message, 'Cuenta de correo no encontrada');

  const meeting = (await list()).data.find((m) => m.subject === 'Reunión del jueves')!;
  const replied = await app.inject({ method: 'POST', url: `/emails/${meeting.id}/reply`, headers: auth, payload: { body: 'Confirmado', track: false } });
  t.equal(replied.statusCode, 200, replied.body);
  const reply = await smtp.waitFor(3);
  t.equal(reply.parsed.subject, 'Re: Reunión del jueves');
  t.equal(reply.parsed.inReplyTo, '<reunion@cliente.com>');
  t.match(String(reply.parsed.references), 'reunion@cliente.com');
  t.same(reply.envelope.to, ['luis@cliente.com']);
  t.notMatch(String(reply.parsed.html), 'track', 'tracking off when asked');

  const budget = (await list()).data.find((m) => m.subject === 'Presupuesto')!;
  const forwarded = await app.inject({ method: 'POST', url: `/emails/${budget.id}/forward`, headers: auth, payload: { to: 'socio@empresa.com', body: 'Para revisar' } });
  t.equal(forwarded.statusCode, 200, forwarded.body);
  const forward = await smtp.waitFor(4);
  t.equal(forward.parsed.subject, 'Fwd: Presupuesto');
  t.equal(forward.parsed.attachments[0]?.filename, 'presupuesto.pdf');
  t.equal(forward.parsed.attachments[0]?.content.toString(), '%PDF-1.4 presupuesto de prueba');
});

t.test('bad input answers 400 in Spanish and sends nothing', async (t) => {
  const before = smtp.received.length;
  const cases: [object, string][] = [
    [{ to: 'no-es-correo', subject: 'a', body: 'b' }, 'Correo inválido: no-es-correo'],
    [{ to: '', subject: 'a', body: 'b' }, 'El destinatario es requerido'],
    [{ to: 'a@b.com', subject: '', body: 'b' }, 'El asunto es requerido'],
    [{ to: 'a@b.com', subject: 'a' }, 'El mensaje es requerido'],
    [{ to: 'a@b.com', subject: '   ', body: 'b' }, 'El asunto es requerido'],
    [
      { to: 'a@b.com', subject: 'a', body: 'b', attachments: [{ filename: 'big.bin', content: Buffer.alloc(25 * 1024 * 1024 + 1).toString('base64') }] },
      'Los adjuntos superan el límite de 25 MB',
    ],
  ];
  for (const [payload, message] of cases) {
    const res = await app.inject({ method: 'POST', url: '/emails/send', headers: auth, payload });
    t.equal(res.statusCode, 400, message);
    t.equal(res.json().message, message);
  }
  const folder = await app.inject({ url: '/emails?folder=spam', headers: auth });
  t.equal(folder.statusCode, 400);
  t.equal(folder.json().message, 'Carpeta inválida: usa inbox, sent, drafts o trash');
  t.equal(smtp.received.length, before, 'nothing sent');
});

t.test('drafts: saved on the server, continued (the previous version replaced), sent and then removed', async (t) => {
  const save = (payload: object, headers = auth) => app.inject({ method: 'POST', url: '/emails/drafts', headers, payload });
  const bad = await save({ to: 'no-es-correo', subject: 'x' });
  t.equal(bad.statusCode, 400);
  t.equal(bad.json().message, 'Correo inválido: no-es-correo');

  const first = await save({ subject: 'Borrador de oferta', body: 'Primera versión' });
  t.equal(first.statusCode, 200, first.body);
  const firstId = first.json<{ id: string }>().id;
  const opened = (await app.inject({ url: `/emails/${firstId}`, headers: auth })).json<{ folder: string; subject: string; text: string }>();
  t.match(opened, { folder: 'drafts', subject: 'Borrador de oferta', text: 'Primera versión' });

  t.equal((await save({ draftId: firstId, subject: 'Ajeno' }, { authorization: signToken(app).authorization })).statusCode, 404, "another user's draft");
  const second = await save({ draftId: firstId, to: 'cliente@empresa.com', subject: 'Borrador de oferta', body: 'Segunda versión' });
  t.equal(second.statusCode, 200, second.body);
  const secondId = second.json<{ id: string }>().id;
  t.equal((await app.inject({ url: `/emails/${firstId}`, headers: auth })).statusCode, 404, 'the previous version is gone');
  const onServer = async () => {
    const lock = await phone.getMailboxLock('Drafts');
    try {
      // Servers hold back expunges during SEARCH: a NOOP first brings this session's view up to date.
      await phone.noop();
      return ((await phone.search({ subject: 'Borrador de oferta' }, { uid: true })) || []).length;
    } finally {
      lock.release();
    }
  };
  t.equal(await onServer(), 1, 'one version on the server');

  const before = smtp.received.length;
  const sent = await app.inject({
    method: 'POST',
    url: '/emails/send',
    headers: auth,
    payload: { to: 'cliente@empresa.com', subject: 'Borrador de oferta', body: 'Segunda versión', draftId: secondId, track: false },
  });
  t.equal(sent.statusCode, 200, sent.body);
  t.equal((await smtp.waitFor(before + 1)).parsed.subject, 'Borrador de oferta');
  t.equal((await app.inject({ url: `/emails/${secondId}`, headers: auth })).statusCode, 404, 'sent: no longer a draft');
  t.equal(await onServer(), 0, 'removed from Drafts on the server');
});

t.test('delete moves to the server Trash; from Trash it is gone for good', async (t) => {
  const promo = (await list()).data.find((m) => m.subject === 'Ofertas')!;
  const moved = await app.inject({ method: 'DELETE', url: `/emails/${promo.id}`, headers: auth });
  t.same(moved.json(), { success: true, permanently: false });
  const trash = await list('?folder=trash');
  t.equal(trash.data[0]?.id, promo.id, 'same mail, now in Trash');
  t.notOk((await list()).data.find((m) => m.id === promo.id));
  const lock = await phone.getMailboxLock('Trash');
  try {
    t.equal(((await phone.search({ subject: 'Ofertas' }, { uid: true })) || []).length, 1, 'in Trash on the server');
  } finally {
    lock.release();
  }
  const gone = await app.inject({ method: 'DELETE', url: `/emails/${promo.id}`, headers: auth });
  t.same(gone.json(), { success: true, permanently: true });
  t.equal((await app.inject({ url: `/emails/${promo.id}`, headers: auth })).statusCode, 404);
  const lock2 = await phone.getMailboxLock('Trash');
  try {
    await phone.noop(); // this session still had Trash open: take the other session's expunge first
    t.equal(((await phone.search({ subject: 'Ofertas' }, { uid: true })) || []).length, 0, 'expunged on the server');
  } finally {
    lock2.release();
  }
});

t.test('disconnect forgets the account and its mail', async (t) => {
  const stranger = signToken(app);
  t.equal((await app.inject({ method: 'DELETE', url: `/emails/integrations/${accountId}`, headers: { authorization: stranger.authorization } })).statusCode, 404);
  t.equal((await app.inject({ method: 'DELETE', url: `/emails/integrations/${accountId}`, headers: auth })).statusCode, 204);
  t.same((await app.inject({ url: '/emails/integrations', headers: auth })).json(), []);
  t.equal((await list()).pagination.total, 0);
  // The security log: the mailbox connected and disconnected once each, naming the address and nothing secret.
  const lines = await platform.db.sql<{ data: { activity: string; detail: object } }[]>`
    select data from email.outbox where user_id = ${owner.userId} and type = 'security.activity.recorded' order by occurred_at, id`;
  t.same(
    lines.map((l) => [l.data.activity, l.data.detail]),
    [
      ['provider.connected', { provider: 'email', account: USER }],
      ['provider.disconnected', { provider: 'email', account: USER }],
    ],
  );
  t.notMatch(JSON.stringify(lines), new RegExp(PASSWORD), 'no password in the log lines');
});
