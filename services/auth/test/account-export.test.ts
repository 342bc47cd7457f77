import t from 'tap';
import aiService from '@asistente/ai';
import analyticsService from '@asistente/analytics';
import calendarService from '@asistente/calendar';
import contactsService from '@asistente/contacts';
import emailService from '@asistente/email';
import inboxService from '@asistente/inbox';
import whatsappService from '@asistente/whatsapp';
import { buildServicesApp, createTestPlatform, readZip } from '@asistente/kit/testing';
import { ACCOUNT_EXPORT_TTL_HOURS } from '@asistente/contracts';
import authService from '../src/app.js';
import { EXPORTS_WINDOW_SECONDS } from '../src/domain/account-export.service.js';

const platform = await createTestPlatform(t, { nats: true });
const app = await buildServicesApp(t, [authService, contactsService, whatsappService, emailService, calendarService, aiService, analyticsService, inboxService], platform);
const sql = platform.db.sql;
const secrets = platform.secrets;

let n = 0;
async function register() {
  const email = `exporta${++n}.${Date.now()}@ejemplo.es`;
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });
  const { user, token } = res.json();
  return { email, userId: user.id as string, authorization: `Bearer ${token}` };
}

// Secrets of every kind the user holds: none may reach the archive, in clear or sealed.
const OPENAI_KEY = 'sk-proj-ESTA-CLAVE-NO-DEBE-SALIR-1234';
const GOOGLE_REFRESH = '1//google-refresh-token-que-no-sale';
const MAIL_PASSWORD = 'contraseña-imap-que-no-sale';
const WA_AUTH = 'noise-key-de-whatsapp-que-no-sale';
const CALDAV_PASSWORD = 'clave-de-aplicacion-icloud-que-no-sale';
const CALDAV_EVENT = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:cita-1\r\nSUMMARY:Cita en iCloud\r\nDTSTART:20261203T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

async function seed(userId: string): Promise<void> {
  const sealed = (plaintext: string, table: string, column: string) => secrets.seal(plaintext, { userId, table, column });
  await sql`insert into ai.provider_keys (user_id, provider, api_key_enc, last4) values (${userId}, 'openai', ${sealed(OPENAI_KEY, 'ai.provider_keys', 'api_key_enc')}, '1234')`;
  await sql`insert into calendar.google_accounts (user_id, email, refresh_token_enc) values (${userId}, 'ana@gmail.com', ${sealed(GOOGLE_REFRESH, 'calendar.google_accounts', 'refresh_token_enc')})`;
  await sql`insert into calendar.calendars (user_id, id, summary) values (${userId}, 'primary', 'Agenda de Ana')`;
  await sql`
    insert into calendar.events (user_id, calendar_id, id, summary, location, all_day, start_at, end_at, attendees, normalized)
    values (${userId}, 'primary', 'ev1', 'Reunión con Luis, presupuesto', 'Madrid', false, '2026-12-01T10:00:00Z', '2026-12-01T11:00:00Z', '{luis@ejemplo.es}', '{}')`;
  await sql`
    insert into calendar.caldav_accounts (user_id, server_url, username, password_enc, root_url, principal_url, home_url)
    values (${userId}, 'https://caldav.icloud.com', 'ana@icloud.com', ${sealed(CALDAV_PASSWORD, 'calendar.caldav_accounts', 'password_enc')},
      'https://caldav.icloud.com/', 'https://caldav.icloud.com/1/principal/', 'https://caldav.icloud.com/1/calendars/')`;
  await sql`insert into calendar.caldav_calendars (user_id, id, name) values (${userId}, '/1/calendars/home/', 'Casa')`;
  await sql`
    insert into calendar.caldav_objects (user_id, calendar_id, href, uid, ics, starts_at)
    values (${userId}, '/1/calendars/home/', '/1/calendars/home/cita-1.ics', 'cita-1', ${CALDAV_EVENT}, '2026-12-03T09:00:00Z')`;
  await sql`insert into whatsapp.auth_state (user_id, key, value_enc) values (${userId}, 'creds', ${sealed(WA_AUTH, 'whatsapp.auth_state', 'value_enc')})`;
  const [chat] = await sql<{ id: string }[]>`
    insert into whatsapp.chats (user_id, jid, name, phone) values (${userId}, '34600111222@s.whatsapp.net', 'Luis', '+34600111222') returning id`;
  for (let i = 0; i < 3; i++) {
    await sql`
      insert into whatsapp.messages (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, sent_at, status)
      values (${userId}, ${chat!.id}, ${`wa${i}`}, 'incoming', 'phone', '34600111222@s.whatsapp.net', 'me', ${`hola ${i}`}, ${new Date(Date.UTC(2026, 10, 1, 9, i))}, 'received')`;
  }
  await sql`insert into whatsapp.auto_replies (user_id, keyword, keyword_folded, response) values (${userId}, 'Horario', 'horario', 'De 9 a 14')`;
  const [account] = await sql<{ id: string }[]>`
    insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user, smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc)
    values (${userId}, 'imap', 'ana@ejemplo.es', 'imap.ejemplo.es', 993, true, 'ana', 'smtp.ejemplo.es', 465, true, 'ana',
      ${sealed(JSON.stringify({ password: MAIL_PASSWORD }), 'email.accounts', 'credentials_enc')})
    returning id`;
  const [whole] = await sql<{ id: string }[]>`
    insert into email.messages (account_id, user_id, folder, uid, message_id, from_addr, to_addrs, subject, text_body, has_attachments, sent_at)
    values (${account!.id}, ${userId}, 'inbox', 1, '<m1@ejemplo.es>', 'luis@ejemplo.es', 'ana@ejemplo.es', 'Presupuesto', 'Te adjunto el presupuesto', true, '2026-11-02T08:00:00Z')
    returning id`;
  await sql`insert into email.attachments (message_id, position, name, content_type, size, content) values (${whole!.id}, 0, 'presupuesto.txt', 'text/plain', 5, ${Buffer.from('12345')})`;
  const [partial] = await sql<{ id: string }[]>`
    insert into email.messages (account_id, user_id, folder, uid, from_addr, to_addrs, subject, preview, body_fetched, has_attachments, sent_at)
    values (${account!.id}, ${userId}, 'inbox', 2, 'eva@ejemplo.es', 'ana@ejemplo.es', 'Factura antigua', 'Adjunto la factura', false, true, '2026-01-02T08:00:00Z')
    returning id`;
  await sql`insert into email.attachments (message_id, position, name, content_type, size, content) values (${partial!.id}, 0, 'factura.pdf', 'application/pdf', 3, ${Buffer.from('PDF')})`;
  await sql`insert into email.templates (user_id, name, subject, body) values (${userId}, 'Bienvenida', 'Hola {{nombre}}', 'Gracias por tu visita')`;
  await sql`insert into analytics.hourly (user_id, metric, hour, value) values (${userId}, 'whatsapp.received', '2026-11-01T09:00:00Z', 3)`;
  await sql`
    insert into ai.runs (id, user_id, trigger, chat_id, model, prompt_tokens, completion_tokens, cost_usd, replied)
    values (gen_random_uuid(), ${userId}, 'whatsapp', '34600111222@s.whatsapp.net', 'gpt-4o-mini', 120, 30, 0.0001, true)`;
}

/** Polls the status until the build leaves 'running' (a state, never a time). */
async function finished(authorization: string, id: string) {
  for (let i = 0; i < 1000; i++) {
    const res = await app.inject({ url: `/api/account/export/${id}`, headers: { authorization } });
    const body = res.json();
    if (body.status !== 'running') return body;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the export never finished');
}

t.test('the owner gets a ZIP of every service, without a secret, from any request; another user gets a 404', async (t) => {
  const owner = await register();
  const other = await register();
  await seed(owner.userId);
  const contact = await app.inject({
    method: 'POST',
    url: '/api/contacts',
    headers: { authorization: owner.authorization },
    payload: { firstName: '=HYPERLINK("http://x")', lastName: 'Pérez', email: 'luis@ejemplo.es', phone: '+34 600 111 222', company: 'ACME', tags: ['cliente'] },
  });
  t.equal(contact.statusCode, 201);

  const start = await app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization: owner.authorization } });
  t.equal(start.statusCode, 202);
  const { id, status } = start.json();
  t.equal(status, 'running');
  const again = await app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization: owner.authorization } });
  t.equal(again.statusCode, 409, 'a second click while it runs is refused');

  const done = await finished(owner.authorization, id);
  t.match(done, { id, status: 'ready', progress: 100, downloadUrl: `/api/account/export/${id}/download` });
  t.ok(Date.parse(done.expiresAt) - Date.now() > 23 * 3600_000, 'valid for 24 hours');

  t.equal((await app.inject({ url: `/api/account/export/${id}`, headers: { authorization: other.authorization } })).statusCode, 404);
  const stolen = await app.inject({ url: `/api/account/export/${id}/download`, headers: { authorization: other.authorization } });
  t.equal(stolen.statusCode, 404);
  t.equal(stolen.json().message, 'No existe esa exportación de datos');

  const download = await app.inject({ url: done.downloadUrl, headers: { authorization: owner.authorization } });
  t.equal(download.statusCode, 200);
  t.equal(download.headers['content-type'], 'application/zip');
  t.equal(Number(download.headers['content-length']), done.size);
  const files = readZip(download.rawPayload);
  const names = [...files.keys()].sort();
  t.same(names.filter((name) => !name.startsWith('correo/')), [
    'analitica/conversaciones.csv',
    'analitica/por-hora.csv',
    'analitica/respuestas.csv',
    'analitica/totales.csv',
    'asistente/chats-pausados.json',
    'asistente/ejecuciones.json',
    'calendario/caldav/_1_calendars_home_/cita-1.ics',
    'calendario/eventos.ics',
    'contactos/contactos.csv',
    'contactos/contactos.json',
    'contactos/papelera.json',
    'contactos/vistas-guardadas.json',
    'conversaciones/conversaciones.json',
    'conversaciones/mensajes-y-notas.json',
    'conversaciones/visitantes-chat-web.json',
    'cuenta/actividad-de-seguridad.json',
    'cuenta/perfil.json',
    'whatsapp/chats/34600111222@s.whatsapp.net.json',
    'whatsapp/respuestas-automaticas.json',
  ]);
  const mail = names.filter((name) => name.startsWith('correo/'));
  t.equal(mail.length, 4);
  t.match(mail, [/^correo\/adjuntos\/[0-9a-f-]{36}\/[0-9a-f]{8}-factura\.pdf$/, 'correo/correos.json', /^correo\/inbox\/2026-11-02-[0-9a-f-]{36}\.eml$/, 'correo/plantillas.json']);
  const text = (name: string) => files.get(name)!.toString('utf8');
  t.match(JSON.parse(text('cuenta/perfil.json')), { id: owner.userId, email: owner.email, firstName: 'Ana' });
  t.notOk('passwordHash' in JSON.parse(text('cuenta/perfil.json')));
  t.match(text('contactos/contactos.csv'), `'=HYPERLINK(""http://x"")",Pérez,luis@ejemplo.es,+34 600 111 222,ACME,cliente`, 'formula-safe, as the contacts export');
  t.match(JSON.parse(text('contactos/contactos.json')), [{ firstName: '=HYPERLINK("http://x")', email: 'luis@ejemplo.es' }]);
  const chat = JSON.parse(text('whatsapp/chats/34600111222@s.whatsapp.net.json'));
  t.equal(chat.chat.name, 'Luis');
  t.same(chat.messages.map((m: { message: string }) => m.message), ['hola 0', 'hola 1', 'hola 2'], 'oldest first');
  t.match(JSON.parse(text('whatsapp/respuestas-automaticas.json')), [{ keyword: 'Horario', response: 'De 9 a 14' }]);
  const eml = text(mail[2]!);
  t.match(eml, /Subject: Presupuesto/);
  t.match(eml, /Message-ID: <m1@ejemplo.es>/);
  t.match(eml, /filename=presupuesto.txt/);
  t.match(JSON.parse(text('correo/plantillas.json')), [{ name: 'Bienvenida', subject: 'Hola {{nombre}}' }]);
  t.match(JSON.parse(text('correo/correos.json')), [{ subject: 'Factura antigua', from: 'eva@ejemplo.es' }]);
  t.equal(text(mail[0]!), 'PDF', 'the stored attachment of a mail kept without its body');
  t.match(text('calendario/eventos.ics'), /^BEGIN:VCALENDAR[\s\S]*SUMMARY:Reunión con Luis\\, presupuesto[\s\S]*END:VCALENDAR\r\n$/);
  t.equal(text('calendario/caldav/_1_calendars_home_/cita-1.ics'), CALDAV_EVENT, 'a CalDAV event as its server sent it');
  t.match(JSON.parse(text('asistente/ejecuciones.json')), [{ model: 'gpt-4o-mini', promptTokens: 120, costUsd: 0.0001 }]);
  t.ok(text('analitica/por-hora.csv').startsWith('metrica,hora,valor\r\n'));
  t.match(text('analitica/por-hora.csv'), '\r\nwhatsapp.received,2026-11-01T09:00:00.000Z,3\r\n');

  const everything = [...files.values()].map((b) => b.toString('utf8')).join('\n');
  for (const secret of [OPENAI_KEY, GOOGLE_REFRESH, MAIL_PASSWORD, WA_AUTH, CALDAV_PASSWORD, 'v1:', 'password_hash', 'passwordHash', 'imap.ejemplo.es']) {
    t.notOk(everything.includes(secret), `no ${secret} in the archive`);
  }
  // Asking for it is in the security log.
  for (let i = 0; i < 500; i++) {
    const [row] = await sql<{ n: string }[]>`select count(*) as n from auth.security_activity where user_id = ${owner.userId} and type = 'export.requested'`;
    if (Number(row!.n) === 1) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.equal((await app.inject({ url: '/api/account/activity', headers: { authorization: owner.authorization } })).json().data[0].type, 'export.requested');
});

t.test('past its 24 hours the download is a 410 in Spanish, and the purge deletes it with its bytes', async (t) => {
  const owner = await register();
  const { id } = (await app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization: owner.authorization } })).json();
  await finished(owner.authorization, id);
  await sql`update auth.account_exports set expires_at = now() - interval '1 second' where id = ${id}`;
  const late = await app.inject({ url: `/api/account/export/${id}/download`, headers: { authorization: owner.authorization } });
  t.equal(late.statusCode, 410);
  t.match(late.json().message, /caducado/);
  const { purgeExpiredExports } = await import('../src/domain/account-export-purge.js');
  const { AccountExportsRepository } = await import('../src/domain/account-exports.repository.js');
  t.ok((await purgeExpiredExports(new AccountExportsRepository(sql))) >= 1);
  t.equal((await app.inject({ url: `/api/account/export/${id}/download`, headers: { authorization: owner.authorization } })).statusCode, 404);
  const [chunks] = await sql<{ n: string }[]>`select count(*) as n from auth.account_export_chunks where export_id = ${id}`;
  t.equal(Number(chunks!.n), 0);
});

t.test('GET /account/export answers the export still running or downloadable (a reload finds it), none once expired, never another user\'s', async (t) => {
  const owner = await register();
  const other = await register();
  const current = async (authorization: string) => (await app.inject({ url: '/api/account/export', headers: { authorization } })).json().export;
  t.equal(await current(owner.authorization), null, 'none asked for yet');
  const { id } = (await app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization: owner.authorization } })).json();
  t.equal((await current(owner.authorization))?.id, id, 'the build in progress');
  const done = await finished(owner.authorization, id);
  t.same(await current(owner.authorization), done, 'the ready archive, as its own status reads');
  t.equal(await current(other.authorization), null, 'another user sees none of it');
  await sql`update auth.account_exports set expires_at = now() - interval '1 second' where id = ${id}`;
  t.equal(await current(owner.authorization), null, 'past its 24 hours, none');
  await sql`
    insert into auth.account_exports (id, user_id, status, progress, heartbeat_at, expires_at)
    values ('00000000-0000-4000-8000-000000000002', ${owner.userId}, 'running', 40, now() - interval '10 minutes', now() + interval '1 day')`;
  t.equal(await current(owner.authorization), null, 'a build whose replica died is not offered as running');
});

t.test('a build whose replica died is failed, not running forever; a new one can start', async (t) => {
  const owner = await register();
  await sql`
    insert into auth.account_exports (id, user_id, status, progress, heartbeat_at, expires_at)
    values ('00000000-0000-4000-8000-000000000001', ${owner.userId}, 'running', 40, now() - interval '10 minutes', now() + interval '1 day')`;
  const res = await app.inject({ url: '/api/account/export/00000000-0000-4000-8000-000000000001', headers: { authorization: owner.authorization } });
  t.match(res.json(), { status: 'failed', progress: 40 });
  const next = await app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization: owner.authorization } });
  t.not(next.json().id, '00000000-0000-4000-8000-000000000001');
  t.equal((await finished(owner.authorization, next.json().id)).status, 'ready');
});

t.test('one export at a time (409) and at most 3 in 24 hours, failed ones too (429 saying when), nothing written when refused', async (t) => {
  t.ok(ACCOUNT_EXPORT_TTL_HOURS * 3600 >= EXPORTS_WINDOW_SECONDS, 'a row outlives the window that counts it (the purge never forgets one early)');
  const owner = await register();
  const post = (authorization = owner.authorization) => app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization } });
  const rows = async () => Number((await sql<{ n: string }[]>`select count(*) as n from auth.account_exports where user_id = ${owner.userId}`)[0]!.n);
  const requested = async () =>
    (await app.inject({ url: '/api/account/activity', headers: { authorization: owner.authorization } })).json().data.filter((e: { type: string }) => e.type === 'export.requested').length;

  // A build running, its heartbeat alive: another replica is building it.
  await sql`
    insert into auth.account_exports (id, user_id, status, progress, created_at, heartbeat_at, expires_at)
    values (gen_random_uuid(), ${owner.userId}, 'running', 10, now() - interval '1 hour', now(), now() + interval '23 hours')`;
  const busy = await post();
  t.equal(busy.statusCode, 409);
  t.same(busy.json(), { statusCode: 409, code: 'EXPORT_RUNNING', error: 'Conflict', message: 'Ya se está preparando un archivo con tus datos. Espera a que termine para pedir otro.' });

  // It finished; two more were asked for today: 23 hours ago, and 2 hours ago (that one failed, and counts).
  await sql`update auth.account_exports set status = 'ready' where user_id = ${owner.userId}`;
  await sql`
    insert into auth.account_exports (id, user_id, status, created_at, heartbeat_at, expires_at) values
      (gen_random_uuid(), ${owner.userId}, 'ready', now() - interval '23 hours', now() - interval '23 hours', now() + interval '1 hour'),
      (gen_random_uuid(), ${owner.userId}, 'failed', now() - interval '2 hours', now() - interval '2 hours', now() + interval '22 hours')`;
  const fourth = await post();
  t.equal(fourth.statusCode, 429);
  t.same(fourth.json(), {
    statusCode: 429,
    code: 'EXPORT_DAILY_LIMIT',
    error: 'Too Many Requests',
    message: 'Ya pediste 3 archivos con tus datos en las últimas 24 horas. Podrás pedir otro dentro de 1 hora.',
  });
  const retryAfter = Number(fourth.headers['retry-after']);
  t.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After: when the oldest of the three is a day old (${retryAfter} s)`);
  t.equal(await rows(), 3, 'nothing written by the refusals');
  t.equal(await requested(), 0, 'nor logged as asked for');

  // The oldest turns a day old (a state, not a wait): a place is free again, for one.
  await sql`update auth.account_exports set created_at = now() - interval '24 hours 1 second' where user_id = ${owner.userId} and created_at < now() - interval '22 hours'`;
  const [one, other] = await Promise.all([post(), post()]);
  t.same([one.statusCode, other.statusCode].sort(), [202, 409], 'two clicks at once, at any replica: one starts, the other is told');
  const started = one.statusCode === 202 ? one : other;
  t.equal((await finished(owner.authorization, started.json().id)).status, 'ready');
  t.equal(await requested(), 1);
  const later = await post();
  t.equal(later.statusCode, 429, 'three in the day again');
  t.equal(later.json().message, 'Ya pediste 3 archivos con tus datos en las últimas 24 horas. Podrás pedir otro dentro de 22 horas.', 'when the failed one of 2 hours ago is a day old');

  const stranger = await register();
  const theirs = await post(stranger.authorization);
  t.equal(theirs.statusCode, 202, 'per account: another is not held back');
  await finished(stranger.authorization, theirs.json().id);
});

t.test('a bad id is a 400 in Spanish; a personal access token is refused', async (t) => {
  const owner = await register();
  const bad = await app.inject({ url: '/api/account/export/nope', headers: { authorization: owner.authorization } });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().message, 'El identificador de la exportación no es válido');
  const scoped = app.jwt.sign({ sub: owner.userId, jti: crypto.randomUUID(), ims: Date.now(), scp: ['contacts:read'] });
  const refused = await app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization: `Bearer ${scoped}` } });
  t.equal(refused.statusCode, 403);
  const part = await app.inject({ url: '/api/contacts/account-export', headers: { authorization: `Bearer ${scoped}` } });
  t.equal(part.statusCode, 403, 'nor does a service part answer it');
});

t.test('"Eliminar mi cuenta" takes the exports and their bytes with the account', async (t) => {
  const owner = await register();
  const { id } = (await app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization: owner.authorization } })).json();
  t.equal((await finished(owner.authorization, id)).status, 'ready');
  const deleted = await app.inject({ method: 'POST', url: '/api/account/delete', headers: { authorization: owner.authorization }, payload: { password: 'secreto1' } });
  t.equal(deleted.statusCode, 202);
  const [rows] = await sql<{ exports: string; chunks: string }[]>`
    select (select count(*) from auth.account_exports where user_id = ${owner.userId}) as exports,
           (select count(*) from auth.account_export_chunks where export_id = ${id}) as chunks`;
  t.same({ exports: Number(rows!.exports), chunks: Number(rows!.chunks) }, { exports: 0, chunks: 0 });
});

t.test('a member who is not the owner downloads their own data: profile, calendars, mail and actions, none of the workspace\'s', async (t) => {
  const owner = await register();
  await seed(owner.userId);
  const member = await register();
  await app.inject({ method: 'PUT', url: '/api/auth/me', headers: { authorization: member.authorization }, payload: { firstName: 'Luis', lastName: 'Gómez' } });
  await sql`insert into calendar.calendars (user_id, id, summary) values (${member.userId}, 'primary', 'Agenda del agente')`;
  await sql`
    insert into calendar.events (user_id, calendar_id, id, summary, all_day, start_at, end_at, attendees, normalized)
    values (${member.userId}, 'primary', 'ev-agente', 'Visita a un cliente', false, '2026-12-02T10:00:00Z', '2026-12-02T11:00:00Z', '{}', '{}')`;
  const invitation = await app.inject({ method: 'POST', url: '/api/workspace/invitations', headers: { authorization: owner.authorization }, payload: { email: member.email, role: 'agent' } });
  const token = new URL(invitation.json().link).searchParams.get('token');
  const joined = await app.inject({ method: 'POST', url: '/api/auth/invitations/accept', headers: { authorization: member.authorization }, payload: { token } });
  const asAgent = `Bearer ${joined.json().token}`;
  // A sign-in of theirs, in the log (written by auth's consumer: wait for the line, not for a time).
  await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: member.email, password: 'secreto1' } });
  while ((await sql`select 1 from auth.security_activity where actor_id = ${member.userId}`).length === 0) await new Promise((resolve) => setImmediate(resolve));

  const start = await app.inject({ method: 'POST', url: '/api/account/export', headers: { authorization: asAgent } });
  t.equal(start.statusCode, 202, 'every member may download their own data');
  const done = await finished(asAgent, start.json().id);
  t.equal(done.status, 'ready');
  const files = readZip((await app.inject({ url: done.downloadUrl, headers: { authorization: asAgent } })).rawPayload);
  const folders = new Set([...files.keys()].map((name) => name.split('/')[0]));
  t.same([...folders].sort(), ['calendario', 'correo', 'cuenta'], 'no contacts, chats, assistant or analytics of the workspace');
  t.equal(JSON.parse(files.get('cuenta/perfil.json')!.toString()).id, member.userId, 'their own profile');
  t.match(files.get('calendario/eventos.ics')!.toString(), /Visita a un cliente/);
  t.notMatch(files.get('calendario/eventos.ics')!.toString(), /presupuesto/, 'not the owner\'s calendar');
  const lines = JSON.parse(files.get('cuenta/actividad-de-seguridad.json')!.toString()) as { actorName: string | null }[];
  t.ok(lines.length > 0, 'their actions are there');
  t.ok(lines.every((line) => line.actorName === 'Luis Gómez'), 'and only the lines they caused');

  const servicePage = await app.inject({ url: '/api/contacts/account-export', headers: { authorization: asAgent } });
  t.equal(servicePage.statusCode, 403, 'the workspace\'s shared pages are the owner\'s export alone');
});
