// Proves what a workspace is to its people: founded with the account, named, listed and switched, a session
// acting in one workspace with one role, and a person who leaves it refused there on the very next request.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import authService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, authService, platform);
const sql = platform.db.sql;

let n = 0;
async function register(company?: string): Promise<{ userId: string; email: string; authorization: string; workspace: { id: string; name: string; role: string } }> {
  const email = `equipo${++n}.${Date.now()}@ejemplo.es`;
  const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { firstName: 'Ana', lastName: `López ${n}`, email, password: 'secreto1', company } });
  const body = res.json();
  return { userId: body.user.id, email, authorization: `Bearer ${body.token}`, workspace: body.workspace };
}

const get = (url: string, authorization: string) => app.inject({ url, headers: { authorization } });
const send = (method: 'POST' | 'PATCH', url: string, authorization: string, payload: object) => app.inject({ method, url, headers: { authorization }, payload });

/** What an invitation will do: `userId` joins the workspace of `ownerId` with `role`. */
async function join(ownerId: string, userId: string, role: 'admin' | 'agent'): Promise<void> {
  await sql`insert into auth.members (workspace_id, user_id, role) values (${ownerId}, ${userId}, ${role})`;
}

t.test('an account founds a workspace of its own, named after its company or "Mi empresa"', async (t) => {
  const named = await register('  Panadería Sol ');
  t.same(named.workspace, { id: named.userId, name: 'Panadería Sol', role: 'owner' });
  const plain = await register();
  t.same((await get('/workspace', plain.authorization)).json(), { id: plain.userId, name: 'Mi empresa', role: 'owner' });
  const members = (await get('/workspace/members', plain.authorization)).json();
  t.equal(members.length, 1);
  t.match(members[0], { userId: plain.userId, firstName: 'Ana', email: plain.email, role: 'owner', joinedAt: String });
  t.type(members[0].lastActiveAt, 'string', 'the owner was active: the session opened');
  t.same((await get('/auth/workspaces', plain.authorization)).json(), [{ id: plain.userId, name: 'Mi empresa', role: 'owner' }]);
});

t.test('the name is trimmed, required, and changed for every member', async (t) => {
  const owner = await register();
  const renamed = await send('PATCH', '/workspace', owner.authorization, { name: '  Taller Ruiz  ' });
  t.equal(renamed.statusCode, 200);
  t.same(renamed.json(), { id: owner.userId, name: 'Taller Ruiz', role: 'owner' });
  for (const name of ['   ', '']) {
    const res = await send('PATCH', '/workspace', owner.authorization, { name });
    t.equal(res.statusCode, 400);
    t.equal(res.json().message, 'El nombre del espacio de trabajo es requerido');
  }
  const missing = await send('PATCH', '/workspace', owner.authorization, {});
  t.equal(missing.statusCode, 400);
  t.equal(missing.json().message, 'El nombre del espacio de trabajo es requerido');
  t.same((await get('/workspace', owner.authorization)).json().name, 'Taller Ruiz', 'nothing written by the refused ones');
});

t.test('a person in two workspaces switches, acts with the role of each, and signs in where they left', async (t) => {
  const owner = await register('Ferretería Norte');
  const agent = await register('Mi propia tienda');
  await join(owner.userId, agent.userId, 'agent');

  const listed = (await get('/auth/workspaces', agent.authorization)).json();
  t.same(
    listed.map((w: { name: string; role: string }) => [w.name, w.role]),
    [['Ferretería Norte', 'agent'], ['Mi propia tienda', 'owner']],
  );

  const switched = await send('POST', '/auth/switch', agent.authorization, { workspaceId: owner.userId });
  t.equal(switched.statusCode, 200);
  const { token, workspace, user } = switched.json();
  t.same(workspace, { id: owner.userId, name: 'Ferretería Norte', role: 'agent' });
  t.equal(user.id, agent.userId);
  const claims = app.jwt.decode<{ sub: string; wid: string; role: string }>(token)!;
  t.match(claims, { sub: agent.userId, wid: owner.userId, role: 'agent' }, 'the token names the person, the workspace and the role');

  const asAgent = `Bearer ${token}`;
  t.same((await get('/auth/me', asAgent)).json().workspace, { id: owner.userId, name: 'Ferretería Norte', role: 'agent' });
  t.same((await get('/workspace/members', asAgent)).json().map((m: { userId: string; role: string }) => [m.userId, m.role]), [
    [owner.userId, 'owner'],
    [agent.userId, 'agent'],
  ]);
  const refused = await send('PATCH', '/workspace', asAgent, { name: 'Mío' });
  t.equal(refused.statusCode, 403, 'an agent cannot rename the workspace');
  t.match(refused.json(), { code: 'ROLE_FORBIDDEN', message: 'No tienes permiso para esta acción' });
  t.equal((await get('/workspace', owner.authorization)).json().name, 'Ferretería Norte');

  const login = await send('POST', '/auth/login', '', { email: agent.email, password: 'secreto1' });
  t.same(login.json().workspace, { id: owner.userId, name: 'Ferretería Norte', role: 'agent' }, 'a sign-in opens the workspace used last');

  const back = await send('POST', '/auth/switch', asAgent, { workspaceId: agent.userId });
  t.same(back.json().workspace, { id: agent.userId, name: 'Mi propia tienda', role: 'owner' });
});

t.test('a workspace the person is not in is not found; a malformed id is a 400', async (t) => {
  const owner = await register();
  const stranger = await register();
  const res = await send('POST', '/auth/switch', stranger.authorization, { workspaceId: owner.userId });
  t.equal(res.statusCode, 404);
  t.equal(res.json().message, 'Espacio de trabajo no encontrado');
  const unknown = await send('POST', '/auth/switch', stranger.authorization, { workspaceId: randomUUID() });
  t.equal(unknown.statusCode, 404);
  const malformed = await send('POST', '/auth/switch', stranger.authorization, { workspaceId: 'mi-empresa' });
  t.equal(malformed.statusCode, 400);
  t.equal(malformed.json().message, 'Espacio de trabajo inválido');
});

t.test('a token for a workspace its person is not in works nowhere, and one who leaves is refused at once', async (t) => {
  const owner = await register();
  const agent = await register();
  const forged = `Bearer ${app.jwt.sign({ sub: agent.userId, wid: owner.userId, role: 'owner', jti: randomUUID(), ims: Date.now() })}`;
  t.equal((await get('/auth/me', forged)).statusCode, 401, 'signed, but not a member');
  const badRole = `Bearer ${app.jwt.sign({ sub: agent.userId, wid: agent.userId, role: 'superadmin', jti: randomUUID(), ims: Date.now() } as never)}`;
  t.equal((await get('/auth/me', badRole)).statusCode, 401, 'an unknown role is no token');

  await join(owner.userId, agent.userId, 'agent');
  const inOwners = `Bearer ${(await send('POST', '/auth/switch', agent.authorization, { workspaceId: owner.userId })).json().token}`;
  t.equal((await get('/auth/me', inOwners)).statusCode, 200);
  await sql`delete from auth.members where workspace_id = ${owner.userId} and user_id = ${agent.userId}`;
  platform.revocations.memberLeft(owner.userId, agent.userId);
  t.equal((await get('/auth/me', inOwners)).statusCode, 401, 'gone from the workspace: the token for it is refused');
  t.equal((await get('/auth/me', agent.authorization)).statusCode, 200, 'their own workspace still works');
});

t.test('a token from before workspaces acts as the owner of its person\'s own workspace', async (t) => {
  const owner = await register('Óptica Mar');
  const legacy = `Bearer ${app.jwt.sign({ sub: owner.userId, jti: randomUUID(), ims: Date.now() })}`;
  t.same((await get('/auth/me', legacy)).json().workspace, { id: owner.userId, name: 'Óptica Mar', role: 'owner' });
});

t.test('deleting the account deletes the workspace it founded', async (t) => {
  const owner = await register();
  const res = await send('POST', '/account/delete', owner.authorization, { password: 'secreto1' });
  t.equal(res.statusCode, 202);
  t.same(await sql`select 1 from auth.workspaces where id = ${owner.userId}`, []);
  t.same(await sql`select 1 from platform.memberships where workspace_id = ${owner.userId}`, []);
});
