import t from 'tap';
import contactsService from '@asistente/contacts';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import emailService from '../src/app.js';
import { addTracking, TrackingSigner } from '../src/domain/tracking.js';

const platform = await createTestPlatform(t, { config: { PUBLIC_URL: 'https://asistente.example' } });
const app = await buildServicesApp(t, [contactsService, emailService], platform);
const owner = signToken(app);
const auth = { authorization: owner.authorization };

t.test('templates: create, list, update, delete; validation in Spanish; another user sees none', async (t) => {
  const created = await app.inject({
    method: 'POST',
    url: '/api/emails/templates',
    headers: auth,
    payload: { name: 'Bienvenida', subject: 'Hola {nombre_cliente}', body: 'Gracias {nombre_cliente} de {empresa}. {producto}' },
  });
  t.equal(created.statusCode, 201);
  const template = created.json<{ id: string }>();
  t.match((await app.inject({ url: '/api/emails/templates', headers: auth })).json(), [{ id: template.id, name: 'Bienvenida' }]);

  const missing = await app.inject({ method: 'POST', url: '/api/emails/templates', headers: auth, payload: { name: 'x', subject: '', body: 'b' } });
  t.equal(missing.statusCode, 400);
  t.equal(missing.json().message, 'El asunto es requerido');

  const updated = await app.inject({ method: 'PUT', url: `/api/emails/templates/${template.id}`, headers: auth, payload: { name: 'Bienvenida 2', subject: 'Hola {nombre_cliente}', body: 'Gracias {nombre_cliente} de {empresa}. {producto}' } });
  t.equal(updated.json().name, 'Bienvenida 2');

  const stranger = signToken(app);
  t.same((await app.inject({ url: '/api/emails/templates', headers: { authorization: stranger.authorization } })).json(), []);
  t.equal((await app.inject({ method: 'DELETE', url: `/api/emails/templates/${template.id}`, headers: { authorization: stranger.authorization } })).statusCode, 404);

  // Filled for a known contact (asked of the contacts service on the owner's behalf).
  await app.inject({ method: 'POST', url: '/api/contacts', headers: auth, payload: { firstName: 'Luis', lastName: 'Pérez', email: 'luis@cliente.com', company: 'Cliente SA' } });
  const filled = await app.inject({ url: `/api/emails/templates/${template.id}/fill?to=LUIS@cliente.com`, headers: auth });
  t.same(filled.json(), { subject: 'Hola Luis Pérez', body: 'Gracias Luis Pérez de Cliente SA. {producto}', contactFound: true });
  const unknown = await app.inject({ url: `/api/emails/templates/${template.id}/fill?to=nadie@x.com`, headers: auth });
  t.same(unknown.json(), { subject: 'Hola {nombre_cliente}', body: 'Gracias {nombre_cliente} de {empresa}. {producto}', contactFound: false });
  // A personal token that may read mail but not contacts learns nothing of the contact through a template.
  const mailOnly = { authorization: signToken(app, owner.userId, ['emails:read', 'emails:send']).authorization };
  const unfilled = await app.inject({ url: `/api/emails/templates/${template.id}/fill?to=luis@cliente.com`, headers: mailOnly });
  t.same(unfilled.json(), { subject: 'Hola {nombre_cliente}', body: 'Gracias {nombre_cliente} de {empresa}. {producto}', contactFound: false }, 'emails:* alone: not filled');
  const preview = await app.inject({ method: 'POST', url: '/api/emails/preview', headers: mailOnly, payload: { to: 'luis@cliente.com', subject: 'Hola {nombre}', body: '{empresa}' } });
  t.match(preview.json(), { contactFound: false, subject: 'Hola {nombre}', body: '{empresa}' }, 'nor previewed');
  const both = { authorization: signToken(app, owner.userId, ['emails:read', 'contacts:read']).authorization };
  t.match((await app.inject({ url: `/api/emails/templates/${template.id}/fill?to=luis@cliente.com`, headers: both })).json(), { subject: 'Hola Luis Pérez', contactFound: true }, 'with contacts:read, filled');

  t.equal((await app.inject({ method: 'DELETE', url: `/api/emails/templates/${template.id}`, headers: auth })).statusCode, 204);
  t.same((await app.inject({ url: '/api/emails/templates', headers: auth })).json(), []);
});

t.test('tracking: signed pixel and links; first open and click count once; no forgery, no open redirect', async (t) => {
  const signer = new TrackingSigner(platform.tokens.secret);
  const [sent] = await platform.db.sql<{ id: string }[]>`
    insert into email.sent (user_id, provider, message_id) values (${owner.userId}, 'imap', '<x@y>') returning id`;
  const sentId = sent!.id;
  const html = addTracking('<p><a href="https://tienda.com/oferta?a=1&amp;b=2">ver</a></p>', sentId, signer, 'https://asistente.example/api/emails/track');
  const pixel = /src="https:\/\/asistente\.example(\/api\/emails\/track\/open\/[^"]+)"/.exec(html)![1]!;
  const click = /href="https:\/\/asistente\.example(\/api\/emails\/track\/click\/[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');

  // Public: no bearer token.
  const opened = await app.inject({ url: pixel });
  t.equal(opened.statusCode, 200);
  t.equal(opened.headers['content-type'], 'image/gif');
  await app.inject({ url: pixel });
  const redirected = await app.inject({ url: click });
  t.equal(redirected.statusCode, 302);
  t.equal(redirected.headers.location, 'https://tienda.com/oferta?a=1&b=2');
  await app.inject({ url: click });

  const events = await platform.db.sql<{ type: string; data: { messageId: string } }[]>`
    select type, data from email.outbox where type in ('email.message.opened', 'email.message.clicked') order by type`;
  t.same(events.map((e) => e.type), ['email.message.clicked', 'email.message.opened'], 'each counted once');
  t.equal(events[0]!.data.messageId, sentId);

  // Forged: the link's MAC with another target, the open MAC as a click, a made-up MAC, another sent id.
  const clickMac = click.split('/')[6]!.split('?')[0]!;
  const evil = `/api/emails/track/click/${sentId}/${clickMac}?u=${encodeURIComponent('https://malo.example')}`;
  t.equal((await app.inject({ url: evil })).statusCode, 404, 'no open redirect');
  t.equal((await app.inject({ url: `/api/emails/track/click/${sentId}/${signer.open(sentId)}?u=https%3A%2F%2Ftienda.com` })).statusCode, 404);
  t.equal((await app.inject({ url: `/api/emails/track/click/${sentId}/${'A'.repeat(43)}?u=https%3A%2F%2Ftienda.com` })).statusCode, 404);
  const [other] = await platform.db.sql<{ id: string }[]>`
    insert into email.sent (user_id, provider, message_id) values (${owner.userId}, 'imap', '<z@y>') returning id`;
  const forgedOpen = await app.inject({ url: `/api/emails/track/open/${other!.id}/${signer.open(sentId)}` });
  t.equal(forgedOpen.statusCode, 200, 'same pixel whatever the address');
  t.equal((await app.inject({ url: '/api/emails/track/open/no-es-uuid/x' })).headers['content-type'], 'image/gif');
  const [row] = await platform.db.sql<{ openedAt: Date | null }[]>`select opened_at from email.sent where id = ${other!.id}`;
  t.equal(row!.openedAt, null, 'a forged open records nothing');
});
