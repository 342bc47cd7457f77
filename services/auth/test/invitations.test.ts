// Proves a team's life in the auth service: an invitation mailed or copied, accepted once by a new person or a
// signed-in one, cancelled and limited; roles changed, members removed and ownership transferred, each ending
// the sessions it must at once.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { INVITATIONS_PER_DAY } from '@asistente/contracts';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import { startSmtpPeer } from '../../email/test/fixtures/smtp-peer.js';
import authService from '../src/app.js';

const smtp = await startSmtpPeer({ users: { sistema: 'clave-smtp' } });
t.teardown(() => smtp.close());
const platform = await createTestPlatform(t, {
  config: {
    SMTP_URL: `smtp://sistema:clave-smtp@${smtp.host}:${smtp.port}`,
    MAIL_FROM: 'Mi Asistente.IA <no-reply@panaderia.test>',
    PUBLIC_URL: 'https://app.panaderia.test/',
    MAX_WORKSPACE_MEMBERS: 4,
  },
});
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;

let n = 0;
const uniqueEmail = () => `equipo${++n}.${Date.now()}@ejemplo.es`;
type Answer = Awaited<ReturnType<typeof app.inject>>;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, authorization?: string, payload?: object): Promise<Answer> =>
  app.inject({ method, url, payload, headers: authorization ? { authorization } : {} });

async function register(firstName = 'Ana', company = 'Panadería Sol') {
  const email = uniqueEmail();
  const body = (await call('POST', '/auth/register', undefined, { firstName, lastName: 'López', email, password: 'secreto1', company })).json();
  return { userId: body.user.id as string, email, authorization: `Bearer ${body.token}` };
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const asSession = (res: Answer) => `Bearer ${res.json().token}`;

t.test('an owner invites by email: 201 with a single-use link to PUBLIC_URL/invitacion, mailed in Spanish', async (t) => {
  const owner = await register('Marta');
  const email = uniqueEmail();
  const before = smtp.received.length;
  const res = await call('POST', '/workspace/invitations', owner.authorization, { email: email.toUpperCase(), role: 'agent' });
  t.equal(res.statusCode, 201);
  const invitation = res.json();
  t.match(invitation, { id: String, email, role: 'agent', expiresAt: String, link: /^https:\/\/app\.panaderia\.test\/invitacion\?token=[A-Za-z0-9_-]{43}$/ });
  const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
  t.ok(days > 6.9 && days <= 7, 'it works for 7 days');
  const mail = await smtp.waitFor(before + 1);
  t.same(mail.envelope.to, [email]);
  t.equal(mail.parsed.subject, 'Marta López te invita a Panadería Sol en Mi Asistente.IA');
  t.match(mail.parsed.text, /te ha invitado a unirte a «Panadería Sol» en Mi Asistente\.IA como agente/);
  t.ok(mail.parsed.text?.includes(invitation.link), 'the mail carries the link');

  const [stored] = await sql<{ tokenEnc: string; tokenHash: string }[]>`select token_enc, token_hash from auth.invitations where id = ${invitation.id}`;
  t.notOk(stored!.tokenEnc.includes(tokenOf(invitation.link)), 'the token is sealed, never stored in clear');
  t.match(stored!.tokenEnc, /^v1:/);

  const listed = (await call('GET', '/workspace/invitations', owner.authorization)).json();
  t.same(listed.map((i: { id: string; link: string }) => [i.id, i.link]), [[invitation.id, invitation.link]], 'pending, with its link to copy again');
});

t.test('a new person sees the invitation and creates their account with it; the link works once', async (t) => {
  const owner = await register('Marta', 'Ferretería Norte');
  const email = uniqueEmail();
  const { link } = (await call('POST', '/workspace/invitations', owner.authorization, { email, role: 'admin' })).json();
  const token = tokenOf(link);

  const preview = await call('GET', `/auth/invitations/${token}`);
  t.equal(preview.statusCode, 200);
  t.same(preview.json(), {
    workspace: { name: 'Ferretería Norte' },
    invitedBy: { firstName: 'Marta', lastName: 'López' },
    role: 'admin',
    email,
    expiresAt: preview.json().expiresAt,
    hasAccount: false,
  });

  const missing = await call('POST', '/auth/invitations/accept', undefined, { token, firstName: 'Luis', lastName: 'Gómez' });
  t.equal(missing.statusCode, 400, 'a new person needs a password');
  t.equal(missing.json().message, 'La contraseña es requerida');

  const accepted = await call('POST', '/auth/invitations/accept', undefined, { token, firstName: 'Luis', lastName: 'Gómez', password: 'secreto2' });
  t.equal(accepted.statusCode, 200);
  t.match(accepted.json(), { user: { firstName: 'Luis', email }, workspace: { id: owner.userId, name: 'Ferretería Norte', role: 'admin' } });
  const me = (await call('GET', '/auth/me', asSession(accepted))).json();
  t.same(me.workspace, { id: owner.userId, name: 'Ferretería Norte', role: 'admin' });
  t.same((await call('GET', '/auth/workspaces', asSession(accepted))).json().map((w: { name: string }) => w.name), ['Ferretería Norte'], 'no workspace of their own');

  const again = await call('POST', '/auth/invitations/accept', undefined, { token, firstName: 'Otro', lastName: 'Más', password: 'secreto3' });
  t.equal(again.statusCode, 404);
  t.equal(again.json().message, 'La invitación no existe o ha caducado');
  t.equal((await call('GET', `/auth/invitations/${token}`)).statusCode, 404, 'spent');

  const login = await call('POST', '/auth/login', undefined, { email, password: 'secreto2' });
  t.same(login.json().workspace, { id: owner.userId, name: 'Ferretería Norte', role: 'admin' }, 'they sign in to it');
  const members = (await call('GET', '/workspace/members', owner.authorization)).json();
  t.same(members.map((m: { firstName: string; role: string }) => [m.firstName, m.role]), [['Marta', 'owner'], ['Luis', 'admin']]);
});

t.test('someone with an account signs in to accept; another account cannot take the invitation', async (t) => {
  const owner = await register('Marta', 'Óptica Mar');
  const invited = await register('Pablo', 'Su tienda');
  const other = await register('Eva');
  const { link } = (await call('POST', '/workspace/invitations', owner.authorization, { email: invited.email, role: 'agent' })).json();
  const token = tokenOf(link);
  t.equal((await call('GET', `/auth/invitations/${token}`)).json().hasAccount, true);

  const asNew = await call('POST', '/auth/invitations/accept', undefined, { token, firstName: 'Pablo', lastName: 'Ruiz', password: 'secreto9' });
  t.equal(asNew.statusCode, 409);
  t.equal(asNew.json().message, 'Ya tienes una cuenta con este correo: inicia sesión para aceptar la invitación');

  const wrong = await call('POST', '/auth/invitations/accept', other.authorization, { token });
  t.equal(wrong.statusCode, 403);
  t.equal(wrong.json().message, `Esta invitación es para ${invited.email}: inicia sesión con ese correo para aceptarla`);
  const forged = await call('POST', '/auth/invitations/accept', 'Bearer nada', { token });
  t.equal(forged.statusCode, 401, 'a session sent must be valid');

  const joined = await call('POST', '/auth/invitations/accept', invited.authorization, { token });
  t.equal(joined.statusCode, 200);
  t.same(joined.json().workspace, { id: owner.userId, name: 'Óptica Mar', role: 'agent' });
  t.same(
    (await call('GET', '/auth/workspaces', invited.authorization)).json().map((w: { name: string; role: string }) => [w.name, w.role]),
    [['Óptica Mar', 'agent'], ['Su tienda', 'owner']],
  );
});

t.test('inviting again replaces the link; a cancelled one stops working; members are not invited twice', async (t) => {
  const owner = await register();
  const email = uniqueEmail();
  const first = (await call('POST', '/workspace/invitations', owner.authorization, { email, role: 'agent' })).json();
  const second = (await call('POST', '/workspace/invitations', owner.authorization, { email, role: 'admin' })).json();
  t.equal((await call('GET', `/auth/invitations/${tokenOf(first.link)}`)).statusCode, 404, 'the first link is replaced');
  t.equal((await call('GET', `/auth/invitations/${tokenOf(second.link)}`)).json().role, 'admin');
  t.equal((await call('DELETE', `/workspace/invitations/${second.id}`, owner.authorization)).statusCode, 204);
  t.equal((await call('GET', `/auth/invitations/${tokenOf(second.link)}`)).statusCode, 404, 'cancelled');
  t.equal((await call('DELETE', `/workspace/invitations/${second.id}`, owner.authorization)).statusCode, 404);
  t.same((await call('GET', '/workspace/invitations', owner.authorization)).json(), []);

  const self = await call('POST', '/workspace/invitations', owner.authorization, { email: owner.email, role: 'agent' });
  t.equal(self.statusCode, 409);
  t.equal(self.json().message, 'Esa persona ya es miembro del espacio de trabajo');
  const badRole = await call('POST', '/workspace/invitations', owner.authorization, { email: uniqueEmail(), role: 'owner' });
  t.equal(badRole.statusCode, 400);
  t.equal(badRole.json().message, 'El rol debe ser admin o agent');
  const badEmail = await call('POST', '/workspace/invitations', owner.authorization, { email: 'no-es-correo', role: 'agent' });
  t.equal(badEmail.json().message, 'Correo inválido');
});

t.test('another workspace\'s invitation is not found; an agent cannot invite', async (t) => {
  const owner = await register();
  const stranger = await register();
  const { id } = (await call('POST', '/workspace/invitations', owner.authorization, { email: uniqueEmail(), role: 'agent' })).json();
  t.equal((await call('DELETE', `/workspace/invitations/${id}`, stranger.authorization)).statusCode, 404);
  const agentInvite = (await call('POST', '/workspace/invitations', owner.authorization, { email: stranger.email, role: 'agent' })).json();
  const asAgent = asSession(await call('POST', '/auth/invitations/accept', stranger.authorization, { token: tokenOf(agentInvite.link) }));
  const refused = await call('POST', '/workspace/invitations', asAgent, { email: uniqueEmail(), role: 'agent' });
  t.equal(refused.statusCode, 403);
  t.equal(refused.json().message, 'No tienes permiso para esta acción');
  t.equal((await call('GET', '/workspace/invitations', asAgent)).statusCode, 403);
});

t.test(`at most MAX_WORKSPACE_MEMBERS people, and ${INVITATIONS_PER_DAY} invitations a day`, async (t) => {
  const owner = await register();
  for (let i = 0; i < 3; i++) t.equal((await call('POST', '/workspace/invitations', owner.authorization, { email: uniqueEmail(), role: 'agent' })).statusCode, 201);
  const full = await call('POST', '/workspace/invitations', owner.authorization, { email: uniqueEmail(), role: 'agent' });
  t.equal(full.statusCode, 409, 'the owner and three invitations fill a workspace of 4');
  t.equal(full.json().message, 'El espacio de trabajo admite como máximo 4 personas');

  const busy = await register();
  await sql`
    insert into auth.invitations (id, workspace_id, email, role, token_hash, token_enc, expires_at, cancelled_at)
    select gen_random_uuid(), ${busy.userId}, 'x' || i || '@ejemplo.es', 'agent', md5(${busy.userId} || i), 'v1:x', now() + interval '7 days', now()
    from generate_series(1, ${INVITATIONS_PER_DAY}) as i`;
  const limited = await call('POST', '/workspace/invitations', busy.authorization, { email: uniqueEmail(), role: 'agent' });
  t.equal(limited.statusCode, 429);
  t.equal(limited.json().message, `Has enviado el máximo de ${INVITATIONS_PER_DAY} invitaciones por hoy. Inténtalo mañana.`);
});

/** A person joined to the owner's workspace by an invitation, and their session there. */
async function joined(owner: { authorization: string }, role: 'admin' | 'agent') {
  const person = await register('Luis');
  const { link } = (await call('POST', '/workspace/invitations', owner.authorization, { email: person.email, role })).json();
  const session = asSession(await call('POST', '/auth/invitations/accept', person.authorization, { token: tokenOf(link) }));
  return { ...person, session };
}

t.test('a role change ends the member\'s sessions there, and their tokens fall to the new role', async (t) => {
  const owner = await register();
  const admin = await joined(owner, 'admin');
  const created = await call('POST', '/auth/tokens', admin.session, { name: 'Script', scopes: ['contacts:read'] });
  t.equal(created.statusCode, 201);
  const changed = await call('PATCH', `/workspace/members/${admin.userId}`, owner.authorization, { role: 'agent' });
  t.equal(changed.statusCode, 200);
  t.match(changed.json(), { userId: admin.userId, role: 'agent' });
  t.equal((await call('GET', '/auth/me', admin.session)).statusCode, 401, 'the admin session ended');
  t.equal((await call('GET', '/auth/me', admin.authorization)).statusCode, 200, 'their own workspace is untouched');
  const [token] = await sql<{ role: string }[]>`select role from platform.personal_tokens where id = ${created.json().id}`;
  t.equal(token!.role, 'agent');
  const again = asSession(await call('POST', '/auth/switch', admin.authorization, { workspaceId: owner.userId }));
  t.equal((await call('GET', '/workspace', again)).json().role, 'agent', 'a new session carries the new role');

  const ownerChange = await call('PATCH', `/workspace/members/${owner.userId}`, again, { role: 'agent' });
  t.equal(ownerChange.statusCode, 403, 'an agent manages no one');
  const fixed = await call('PATCH', `/workspace/members/${owner.userId}`, owner.authorization, { role: 'admin' });
  t.equal(fixed.statusCode, 409);
  t.equal(fixed.json().message, 'No se puede cambiar el rol del propietario: primero transfiere el espacio de trabajo');
  t.equal((await call('PATCH', `/workspace/members/${randomUUID()}`, owner.authorization, { role: 'agent' })).statusCode, 404);
});

t.test('removing a member ends their sessions and tokens there at once; what is theirs elsewhere stays', async (t) => {
  const owner = await register();
  const agent = await joined(owner, 'agent');
  const created = (await call('POST', '/auth/tokens', agent.session, { name: 'Script', scopes: ['contacts:read'] })).json();
  t.equal((await call('DELETE', `/workspace/members/${agent.userId}`, owner.authorization)).statusCode, 204);
  t.equal((await call('GET', '/auth/me', agent.session)).statusCode, 401);
  t.same(await sql`select 1 from platform.personal_tokens where id = ${created.id}`, [], 'their token for the workspace is gone');
  t.equal((await call('GET', '/auth/me', agent.authorization)).statusCode, 200);
  t.same((await call('GET', '/workspace/members', owner.authorization)).json().length, 1);
  t.equal((await call('DELETE', `/workspace/members/${agent.userId}`, owner.authorization)).statusCode, 404);
  const ownerRemoval = await call('DELETE', `/workspace/members/${owner.userId}`, owner.authorization);
  t.equal(ownerRemoval.statusCode, 409);
  t.equal(ownerRemoval.json().message, 'No se puede quitar al propietario del espacio de trabajo');
});

t.test('the owner transfers the workspace to an admin with their password, and stays as an admin', async (t) => {
  const owner = await register();
  const admin = await joined(owner, 'admin');
  const agent = await joined(owner, 'agent');
  const toAgent = await call('POST', '/workspace/transfer', owner.authorization, { userId: agent.userId, password: 'secreto1' });
  t.equal(toAgent.statusCode, 409);
  t.equal(toAgent.json().message, 'Solo puedes transferir el espacio de trabajo a un administrador');
  const wrong = await call('POST', '/workspace/transfer', owner.authorization, { userId: admin.userId, password: 'otra-cosa' });
  t.equal(wrong.statusCode, 400);
  t.equal(wrong.json().message, 'La contraseña no es correcta');
  t.equal((await call('POST', '/workspace/transfer', admin.session, { userId: admin.userId, password: 'secreto1' })).statusCode, 403, 'an admin cannot take it');

  const moved = await call('POST', '/workspace/transfer', owner.authorization, { userId: admin.userId, password: 'secreto1' });
  t.equal(moved.statusCode, 200);
  t.same(moved.json().workspace, { id: owner.userId, name: 'Panadería Sol', role: 'admin' });
  t.equal((await call('GET', '/auth/me', owner.authorization)).statusCode, 401, 'the owner\'s old session ended');
  t.equal((await call('GET', '/workspace', asSession(moved))).json().role, 'admin');
  t.equal((await call('GET', '/auth/me', admin.session)).statusCode, 401, 'so did the new owner\'s');
  const newOwner = asSession(await call('POST', '/auth/switch', admin.authorization, { workspaceId: owner.userId }));
  t.equal((await call('GET', '/workspace', newOwner)).json().role, 'owner');
  t.same(
    (await call('GET', '/workspace/members', newOwner)).json().map((m: { userId: string; role: string }) => [m.userId, m.role]).sort(),
    [[owner.userId, 'admin'], [admin.userId, 'owner'], [agent.userId, 'agent']].sort(),
  );
  const founder = await call('DELETE', `/workspace/members/${owner.userId}`, newOwner);
  t.equal(founder.statusCode, 409, 'the founder, whose id the workspace carries, stays a member');
  t.equal(founder.json().message, 'No se puede quitar a quien creó el espacio de trabajo');
});

t.test('any member deletes their own account and leaves; a workspace others work in is never erased with its owner', async (t) => {
  const owner = await register('Marta', 'Taller Norte');
  const agent = await joined(owner, 'agent');
  const shared = await call('POST', '/account/delete', owner.authorization, { password: 'secreto1' });
  t.equal(shared.statusCode, 409);
  t.equal(shared.json().message, 'Antes de eliminar tu cuenta, transfiere el espacio de trabajo «Taller Norte» a un administrador o quita a sus miembros');

  const left = await call('POST', '/account/delete', agent.session, { password: 'secreto1' });
  t.equal(left.statusCode, 202, 'an agent may delete their account');
  t.same((await call('GET', '/workspace/members', owner.authorization)).json().map((m: { userId: string }) => m.userId), [owner.userId], 'and leaves the workspace');
  t.same(await sql`select 1 from auth.workspaces where id = ${agent.userId}`, [], 'the workspace they owned alone went with them');

  const admin = await joined(owner, 'admin');
  const moved = await call('POST', '/workspace/transfer', owner.authorization, { userId: admin.userId, password: 'secreto1' });
  const founder = await call('POST', '/account/delete', asSession(moved), { password: 'secreto1' });
  t.equal(founder.statusCode, 409, 'the founder of a workspace now someone else\'s keeps the account its id is');
  t.match(founder.json().message, /Tu cuenta creó el espacio de trabajo «Taller Norte», que ahora es de otra persona/);
  t.same((await sql`select count(*)::int as n from auth.members where workspace_id = ${owner.userId}`)[0], { n: 2 });
});

t.test('the workspace\'s security log says who did what, by name, and keeps the name after they leave', async (t) => {
  const owner = await register('Marta', 'Clínica Luz');
  const admin = await joined(owner, 'admin');
  const login = await call('POST', '/auth/login', undefined, { email: admin.email, password: 'secreto1' });
  t.same(login.json().workspace.id, owner.userId, 'the admin signs in to the workspace');
  await call('POST', '/auth/tokens', asSession(login), { name: 'Zapier', scopes: ['contacts:read'] });
  await call('DELETE', `/workspace/members/${admin.userId}`, owner.authorization);
  const wanted = [
    ['token.created', 'Luis López'],
    ['login.succeeded', 'Luis López'],
  ];
  const lines = async () =>
    ((await call('GET', '/account/activity', owner.authorization)).json().data as { type: string; actor: { name: string } | null }[])
      .filter((line) => line.actor?.name === 'Luis López')
      .map((line) => [line.type, line.actor?.name]);
  // The log is written by auth's consumer of the outbox's events: wait for the lines, not for a time.
  for (let seen = await lines(); seen.length < wanted.length; seen = await lines()) await new Promise((resolve) => setImmediate(resolve));
  t.same(await lines(), wanted);
});
