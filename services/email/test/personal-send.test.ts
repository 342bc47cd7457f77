import t from 'tap';
import contactsService from '@asistente/contacts';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import emailService from '../src/app.js';
import { startDovecot } from './fixtures/dovecot.js';
import { eventually } from './fixtures/imap-peer.js';
import { startSmtpPeer } from './fixtures/smtp-peer.js';

const USER = 'panaderia@example.com';
const PASSWORD = 'clave-de-la-panaderia';

const dovecot = await startDovecot({ users: [{ user: USER, password: PASSWORD }] });
t.teardown(() => dovecot.stop());
const smtp = await startSmtpPeer({ users: { [USER]: PASSWORD } });
t.teardown(() => smtp.close());

// The local Dovecot and SMTP peer are on loopback: allowed, as an operator allows a LAN mail server.
const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1', PUBLIC_URL: 'https://asistente.example' } });
const app = await buildServicesApp(t, [contactsService, emailService], platform);
const owner = signToken(app);
const auth = { authorization: owner.authorization };

interface Integration {
  id: string;
  tracking: boolean;
  sync: { stored: number; total: number } | null;
  lastSyncAt: string | null;
}

const send = (payload: object, key?: string) =>
  app.inject({ method: 'POST', url: '/api/emails/send', headers: { ...auth, ...(key ? { 'idempotency-key': key } : {}) }, payload });
const sentRows = async () => Number((await platform.db.sql<{ n: string }[]>`select count(*) as n from email.sent`)[0]!.n);

let accountId = '';

t.before(async () => {
  const connected = await app.inject({
    method: 'POST',
    url: '/api/emails/integrations',
    headers: auth,
    payload: {
      provider: 'imap',
      credentials: {
        email: USER,
        imap: { host: dovecot.host, port: dovecot.port, secure: false, user: USER, password: PASSWORD },
        smtp: { host: smtp.host, port: smtp.port, secure: false, user: USER, password: PASSWORD },
      },
    },
  });
  if (connected.statusCode !== 201) throw new Error(connected.body);
  accountId = connected.json<Integration>().id;
  for (const contact of [
    { firstName: 'María José', lastName: 'Sanz', email: 'mariajose@cliente.example', company: 'Cafetería Sanz' },
    { firstName: 'Raúl', lastName: 'Ibáñez', email: 'raul@cliente.example' },
  ]) {
    const created = await app.inject({ method: 'POST', url: '/api/contacts', headers: auth, payload: contact });
    if (created.statusCode !== 201) throw new Error(created.body);
  }
});

t.test('tracking is off for a new account until the owner turns it on; each mail can still say otherwise', async (t) => {
  const [account] = (await app.inject({ url: '/api/emails/integrations', headers: auth })).json<Integration[]>();
  t.equal(account!.tracking, false, 'off by default');

  const before = smtp.received.length;
  t.equal((await send({ to: 'raul@cliente.example', subject: 'Sin seguimiento', body: 'Mira https://panaderia.example/pan' })).statusCode, 200);
  const plain = await smtp.waitFor(before + 1);
  t.notMatch(String(plain.parsed.html), '/api/emails/track/', 'no pixel, no rewritten link');

  const bad = await app.inject({ method: 'PUT', url: `/api/emails/integrations/${accountId}/tracking`, headers: auth, payload: { tracking: 'sí' } });
  t.equal(bad.statusCode, 400);
  t.equal(bad.json().message, 'El campo "tracking" debe ser verdadero o falso');
  const stranger = signToken(app);
  const foreign = await app.inject({ method: 'PUT', url: `/api/emails/integrations/${accountId}/tracking`, headers: { authorization: stranger.authorization }, payload: { tracking: true } });
  t.equal(foreign.statusCode, 404, "another user's account");

  const on = await app.inject({ method: 'PUT', url: `/api/emails/integrations/${accountId}/tracking`, headers: auth, payload: { tracking: true } });
  t.equal(on.statusCode, 200, on.body);
  t.equal(on.json<Integration>().tracking, true);
  t.equal((await send({ to: 'raul@cliente.example', subject: 'Con seguimiento', body: 'Mira https://panaderia.example/pan' })).statusCode, 200);
  t.match(String((await smtp.waitFor(before + 2)).parsed.html), '/api/emails/track/open/', 'the account default applies');
  t.equal((await send({ to: 'raul@cliente.example', subject: 'Este no', body: 'Hola', track: false })).statusCode, 200);
  t.notMatch(String((await smtp.waitFor(before + 3)).parsed.html), '/api/emails/track/', 'the mail says otherwise');
  await app.inject({ method: 'PUT', url: `/api/emails/integrations/${accountId}/tracking`, headers: auth, payload: { tracking: false } });
});

t.test('variables are filled on the server per recipient, one mail each, from the contacts as they are now', async (t) => {
  const before = smtp.received.length;
  const rowsBefore = await sentRows();
  const payload = { to: 'Raúl <raul@cliente.example>, MARIAJOSE@cliente.example', subject: 'Hola {nombre_cliente}', body: 'Hola {nombre}, gracias por tu pedido.' };
  const first = await send(payload, 'plantilla-1');
  t.equal(first.statusCode, 200, first.body);
  await smtp.waitFor(before + 2);
  const mails = smtp.received.slice(before);
  const byRecipient = new Map(mails.map((m) => [m.envelope.to.join(','), m.parsed]));
  t.equal(byRecipient.get('raul@cliente.example')?.subject, 'Hola Raúl Ibáñez');
  t.equal(byRecipient.get('raul@cliente.example')?.text?.trim(), 'Hola Raúl, gracias por tu pedido.');
  t.equal(byRecipient.get('MARIAJOSE@cliente.example')?.subject, 'Hola María José Sanz');
  t.equal(byRecipient.get('MARIAJOSE@cliente.example')?.text?.trim(), 'Hola María José, gracias por tu pedido.');
  t.equal(await sentRows(), rowsBefore + 2, 'each copy recorded (its own tracking and statistics)');

  const again = await send(payload, 'plantilla-1');
  t.same(again.json(), first.json(), 'the key answers the first send');
  t.equal(smtp.received.length, before + 2, 'nothing sent twice');

  // The contact changes after the screen showed a preview: the mail carries the name as it is at send time.
  const page = (await app.inject({ url: '/api/contacts?search=raul', headers: auth })).json<{ contacts: { id: string }[] }>();
  await app.inject({ method: 'PUT', url: `/api/contacts/${page.contacts[0]!.id}`, headers: auth, payload: { firstName: 'Raúl', lastName: 'Ibáñez Gil', email: 'raul@cliente.example' } });
  t.equal((await send({ to: 'raul@cliente.example', subject: 'Hola {nombre_cliente}', body: 'Hola' })).statusCode, 200);
  t.equal((await smtp.waitFor(before + 3)).parsed.subject, 'Hola Raúl Ibáñez Gil');
});

t.test('an unfilled variable stops the send with a Spanish 409 naming it, until the owner confirms', async (t) => {
  const before = smtp.received.length;
  const rowsBefore = await sentRows();
  const payload = { to: 'raul@cliente.example, nuevo@desconocido.example', subject: 'Hola {nombre_cliente}', body: 'Su {producto} está listo. {empresa}' };
  const refused = await send(payload, 'sin-completar');
  t.equal(refused.statusCode, 409);
  t.equal(refused.json().code, 'EMAIL_UNRESOLVED_VARIABLES');
  t.equal(
    refused.json().message,
    'El correo tiene variables sin completar: {producto}, {empresa}, {nombre_cliente} (para raul@cliente.example, nuevo@desconocido.example). Complétalas en el texto o en el contacto, o confirma el envío tal cual.',
  );
  t.equal(smtp.received.length, before, 'nothing sent');
  t.equal(await sentRows(), rowsBefore, 'nothing recorded');

  // Confirmed, with the same key (the refused attempt left it free): sent as written where nothing fills it.
  const confirmed = await send({ ...payload, allowUnresolved: true }, 'sin-completar');
  t.equal(confirmed.statusCode, 200, confirmed.body);
  await smtp.waitFor(before + 2);
  const subjects = smtp.received.slice(before).map((m) => `${m.envelope.to[0]}: ${m.parsed.subject}`).sort();
  t.same(subjects, ['nuevo@desconocido.example: Hola {nombre_cliente}', 'raul@cliente.example: Hola Raúl Ibáñez Gil']);

  const noVariables = await send({ to: 'nuevo@desconocido.example', subject: 'Horario de Navidad', body: 'Abrimos de 8 a 14. Precio {especial}' });
  t.equal(noVariables.statusCode, 409, 'any {word} counts, not only the contact ones');
  const badFlag = await send({ ...payload, allowUnresolved: 'sí' });
  t.equal(badFlag.statusCode, 400);
  t.equal(badFlag.json().message, 'El campo "allowUnresolved" debe ser verdadero o falso');
});

t.test('the preview is what the first recipient would get now; no recipient leaves the variables named', async (t) => {
  const preview = (payload: object) => app.inject({ method: 'POST', url: '/api/emails/preview', headers: auth, payload });
  const maria = await preview({ to: 'mariajose@cliente.example, raul@cliente.example', subject: 'Hola {nombre_cliente}', body: '{empresa}: {producto}' });
  t.same(maria.json(), {
    recipient: 'mariajose@cliente.example',
    contactFound: true,
    subject: 'Hola María José Sanz',
    body: 'Cafetería Sanz: {producto}',
    unresolved: ['{producto}'],
  });
  const nobody = await preview({ to: '', subject: 'Hola {nombre_cliente}', body: 'Hola' });
  t.same(nobody.json(), { recipient: null, contactFound: false, subject: 'Hola {nombre_cliente}', body: 'Hola', unresolved: ['{nombre_cliente}'] });
  const stranger = signToken(app);
  const theirs = await app.inject({ method: 'POST', url: '/api/emails/preview', headers: { authorization: stranger.authorization }, payload: { to: 'mariajose@cliente.example', subject: '{nombre_cliente}', body: 'x' } });
  t.same(theirs.json().unresolved, ['{nombre_cliente}'], "another user's contacts fill nothing");
});

t.test('the first sync is over once the account shows its last sync and no progress', async (t) => {
  const account = await eventually('the first sync', async () => {
    const [row] = (await app.inject({ url: '/api/emails/integrations', headers: auth })).json<Integration[]>();
    return row && row.lastSyncAt !== null && row.sync === null ? row : undefined;
  });
  t.equal(account.sync, null);
});
