// The website chat's widget through the API: the owner's settings, a visitor's signed id, messages into the inbox as channel web and answers back live, allowed origins, limits and the visitor's contact.
import t from 'tap';
import { WIDGET_MESSAGES_PER_MINUTE } from '@asistente/contracts';
import { createTestPlatform } from '@asistente/kit/testing';
import { listening, openStream, teamInbox, until, type Body } from './support/team-inbox.js';

const platform = await createTestPlatform(t);
const SITE = 'https://www.peluqueria-lucia.es';
const WIDGET = { name: 'Peluquería Lucía', color: '#0E7490', greeting: '¡Hola! ¿En qué podemos ayudarte?', allowedOrigins: [SITE] };

type Team = Awaited<ReturnType<typeof teamInbox>>;

/** A call as the widget makes it from a page: JSON sent as text/plain (no preflight), the page's origin. */
async function visitorCall(team: Team, method: 'GET' | 'POST', url: string, payload?: object, origin = SITE) {
  const response = await team.app.inject({
    method,
    url: `/api${url}`,
    headers: { origin, ...(payload ? { 'content-type': 'text/plain;charset=UTF-8' } : {}) },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
  return { status: response.statusCode, body: (response.body ? response.json() : {}) as Body, allowOrigin: response.headers['access-control-allow-origin'], retryAfter: response.headers['retry-after'] };
}

async function widgetOf(team: Team): Promise<string> {
  const created = await team.owner.call('POST', '/widget', WIDGET);
  return String(created.body.publicKey);
}

t.test("the owner makes the website's chat; an agent cannot; bad settings are refused in Spanish", async (t) => {
  const team = await teamInbox(t, platform);
  const agent = await team.member('agent', 'Marta', 'Gil');
  t.equal((await team.owner.call('GET', '/widget')).body.message, 'Todavía no has creado el chat web');
  t.equal((await agent.call('POST', '/widget', WIDGET)).status, 403, "an agent cannot make it");
  t.equal((await agent.call('GET', '/widget')).status, 403, 'nor read its settings');

  const bad = await team.owner.call('POST', '/widget', { ...WIDGET, color: 'azul' });
  t.equal(bad.status, 400);
  t.equal(bad.body.message, 'Color inválido: usa el formato #RRGGBB');
  const badOrigin = await team.owner.call('POST', '/widget', { ...WIDGET, allowedOrigins: ['https://tienda.es/contacto'] });
  t.equal(badOrigin.body.message, 'Origen inválido: escribe solo el esquema y el dominio, como https://www.tu-negocio.es');
  t.equal((await team.owner.call('GET', '/widget')).status, 404, 'nothing written');

  const created = await team.owner.call('POST', '/widget', WIDGET);
  t.equal(created.status, 201);
  const key = String(created.body.publicKey);
  t.match(key, /^wk_[A-Za-z0-9_-]{22}$/);
  t.equal(created.body.snippet, `<script src="http://localhost:3000/widget.js" data-key="${key}" async></script>`);
  t.match(created.body, { name: WIDGET.name, color: '#0e7490', greeting: WIDGET.greeting, allowedOrigins: [SITE] });
  t.equal((await team.owner.call('POST', '/widget', WIDGET)).status, 409, 'one per workspace');

  const admin = await team.member('admin', 'Luis', 'Pérez');
  const changed = await admin.call('PATCH', '/widget', { greeting: 'Escríbenos', allowedOrigins: [SITE, 'http://localhost:8080'] });
  t.match(changed.body, { publicKey: key, greeting: 'Escríbenos', allowedOrigins: [SITE, 'http://localhost:8080'], name: WIDGET.name });
  t.equal((await admin.call('PATCH', '/widget', {})).body.message, 'Indica qué quieres cambiar');
});

t.test('a visitor writes from an allowed page, the team answers from the inbox, the visitor hears it live', async (t) => {
  const team = await teamInbox(t, platform);
  const key = await widgetOf(team);

  const config = await visitorCall(team, 'GET', `/widget/${key}/config`);
  t.same(config.body, { name: WIDGET.name, color: '#0e7490', greeting: WIDGET.greeting });
  t.equal(config.allowOrigin, SITE, 'the page may read the answer');
  const elsewhere = await visitorCall(team, 'GET', `/widget/${key}/config`, undefined, 'https://otra-web.es');
  t.equal(elsewhere.status, 403);
  t.equal(elsewhere.body.message, 'Este sitio web no puede usar este chat: el negocio no lo ha autorizado');
  t.equal(elsewhere.allowOrigin, undefined, 'a page not allowed cannot read anything');
  t.equal((await visitorCall(team, 'POST', `/widget/${key}/visitors`, {}, 'https://otra-web.es')).status, 403);
  t.equal((await visitorCall(team, 'GET', '/widget/wk_AAAAAAAAAAAAAAAAAAAAAA/config')).body.message, 'Chat web no encontrado');

  const visitor = await visitorCall(team, 'POST', `/widget/${key}/visitors`, {});
  t.equal(visitor.status, 201);
  const token = String(visitor.body.token);
  const visitorId = String(visitor.body.visitorId);
  const stream = await openStream(t, team.app, `/api/widget/${key}/stream?token=${encodeURIComponent(token)}`, { origin: SITE });
  t.equal(stream.headers.get('access-control-allow-origin'), SITE);
  await stream.next('ready');

  const written = await visitorCall(team, 'POST', `/widget/${key}/messages`, { token, text: 'Hola, ¿abrís el sábado?' });
  t.equal(written.status, 201);
  t.match(written.body, { from: 'visitor', text: 'Hola, ¿abrís el sábado?' });
  await stream.next('message', (m) => m.text === 'Hola, ¿abrís el sábado?' && m.from === 'visitor');

  const list = await until(async () => {
    const data = (await team.owner.call('GET', '/conversations?channel=web')).body.data ?? [];
    return data.length === 1 && data[0];
  }, 'the conversation in the inbox');
  t.match(list, { channel: 'web', handle: `visitor:${visitorId}`, status: 'open', unread: 1, lastMessagePreview: 'Hola, ¿abrís el sábado?' });
  const conversationId = String(list.id);

  await team.owner.call('POST', `/conversations/${conversationId}/notes`, { text: 'Es clienta nueva' });
  const answer = await team.owner.call('POST', `/conversations/${conversationId}/messages`, { text: 'Sí, de 10 a 14 h.' });
  t.equal(answer.status, 201, 'a member answers through the web channel');
  await stream.next('message', (m) => m.text === 'Sí, de 10 a 14 h.' && m.from === 'business');

  const thread = await visitorCall(team, 'GET', `/widget/${key}/messages?token=${encodeURIComponent(token)}`);
  t.same((thread.body.messages as { from: string; text: string }[]).map((m) => [m.from, m.text]), [
    ['visitor', 'Hola, ¿abrís el sábado?'],
    ['business', 'Sí, de 10 a 14 h.'],
  ], "the visitor's thread: messages only, never the team's note");

  const forged = await visitorCall(team, 'POST', `/widget/${key}/messages`, { token: `${visitorId}.AAAA`, text: 'Hola' });
  t.equal(forged.status, 401);
  t.equal(forged.body.message, 'Tu sesión de chat no es válida: recarga la página');
  const other = await teamInbox(t, platform);
  const otherKey = await widgetOf(other);
  t.equal((await visitorCall(other, 'POST', `/widget/${otherKey}/messages`, { token, text: 'Hola' })).status, 401, "one widget's visitor is nobody at another's");

  const address = await listening(team.app);
  const raw = await fetch(`${address}/api/widget/${key}/messages`, { method: 'POST', headers: { origin: SITE, 'content-type': 'text/plain' }, body: 'no es json' });
  t.equal(raw.status, 400);
  t.equal(((await raw.json()) as Body).message, 'El cuerpo de la petición no es un JSON válido');
  const long = await visitorCall(team, 'POST', `/widget/${key}/messages`, { token, text: 'a'.repeat(2001) });
  t.equal(long.body.message, 'El mensaje admite como máximo 2000 caracteres');
});

t.test("a visitor's messages per minute are limited, with the wait said, and nothing beyond is stored", async (t) => {
  const team = await teamInbox(t, platform);
  const key = await widgetOf(team);
  const token = String((await visitorCall(team, 'POST', `/widget/${key}/visitors`, {})).body.token);
  for (let i = 0; i < WIDGET_MESSAGES_PER_MINUTE; i++) {
    t.equal((await visitorCall(team, 'POST', `/widget/${key}/messages`, { token, text: `Mensaje ${i}` })).status, 201);
  }
  const refused = await visitorCall(team, 'POST', `/widget/${key}/messages`, { token, text: 'Uno más' });
  t.equal(refused.status, 429);
  t.equal(refused.body.message, 'Has enviado demasiados mensajes seguidos. Espera un momento y vuelve a intentarlo');
  t.ok(Number(refused.retryAfter) >= 1, 'Retry-After');
  t.equal(refused.allowOrigin, SITE, 'the page can read why');
  const [stored] = await team.sql<{ count: number }[]>`
    select count(*)::int as count from inbox.entries e join inbox.conversations c on c.id = e.conversation_id
    where c.user_id = ${team.workspaceId} and c.channel = 'web'`;
  t.equal(stored?.count, WIDGET_MESSAGES_PER_MINUTE);
});

t.test("a visitor's details link their conversation to a contact: found by email, else created", async (t) => {
  const team = await teamInbox(t, platform);
  const key = await widgetOf(team);
  const existing = await team.owner.call('POST', '/contacts', { firstName: 'Carmen', lastName: 'Ruiz', email: 'carmen@ejemplo.es' });

  const first = String((await visitorCall(team, 'POST', `/widget/${key}/visitors`, {})).body.token);
  await visitorCall(team, 'POST', `/widget/${key}/messages`, { token: first, text: 'Quiero una cita' });
  t.equal((await visitorCall(team, 'POST', `/widget/${key}/profile`, { token: first })).body.message, 'Déjanos al menos tu nombre, tu correo o tu teléfono');
  const refused = await visitorCall(team, 'POST', `/widget/${key}/profile`, { token: first, email: 'no-es-correo' });
  t.equal(refused.body.message, 'Correo inválido');
  t.equal(refused.allowOrigin, SITE, 'the page can read why its body was refused');
  const profile = await visitorCall(team, 'POST', `/widget/${key}/profile`, { token: first, name: 'Carmen Ruiz', email: 'Carmen@Ejemplo.es' });
  t.same(profile.body, { name: 'Carmen Ruiz', email: 'carmen@ejemplo.es', phone: null, contactLinked: true });
  const [conversation] = (await team.owner.call('GET', '/conversations?channel=web')).body.data ?? [];
  t.match(conversation, { name: 'Carmen Ruiz', contactId: existing.body.id }, 'the existing contact, by email');
  const detail = await team.owner.call('GET', `/conversations/${String(conversation?.id)}`);
  t.match(detail.body.contact, { id: existing.body.id, firstName: 'Carmen', email: 'carmen@ejemplo.es' }, 'kept when the conversation is opened');

  const second = String((await visitorCall(team, 'POST', `/widget/${key}/visitors`, {})).body.token);
  await visitorCall(team, 'POST', `/widget/${key}/profile`, { token: second, name: 'Jorge Martín Sanz', phone: '+34 622 333 444' });
  const created = await team.owner.call('GET', '/contacts/by-handle?handle=%2B34622333444');
  t.match((created.body as { contacts?: unknown[] }).contacts?.[0], { firstName: 'Jorge', lastName: 'Martín Sanz', phone: '+34622333444', tags: ['chat web'] }, 'a new contact');
});
