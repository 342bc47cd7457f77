import { randomUUID } from 'node:crypto';
import t from 'tap';
import { buildServiceApp, createTestPlatform, insertAccount, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);
const sql = platform.db.sql;

type Json = Record<string, unknown>;

function client(authorization: string) {
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers: { authorization } }),
    post: (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: { authorization }, payload: payload as Json }),
    put: (url: string, payload: unknown) => app.inject({ method: 'PUT', url, headers: { authorization }, payload: payload as Json }),
    del: (url: string) => app.inject({ method: 'DELETE', url, headers: { authorization } }),
  };
}

async function rowCount(userId: string): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select count(*) as n from contacts.contacts where user_id = ${userId}`;
  return Number(row!.n);
}

t.test('create, read, update and delete a contact', async (t) => {
  const me = signToken(app);
  const api = client(me.authorization);
  const created = await api.post('/contacts', {
    firstName: '  José ',
    lastName: 'Pérez',
    email: 'jose@acme.es',
    phone: '+34 600 000 000',
    company: 'ACME',
    tags: ['vip', ' vip ', 'VIP', '', 'cliente'],
  });
  t.equal(created.statusCode, 201);
  const contact = created.json();
  t.match(contact, { firstName: 'José', lastName: 'Pérez', email: 'jose@acme.es', company: 'ACME', tags: ['vip', 'cliente'] });
  t.match(contact.id, /^[0-9a-f-]{36}$/);

  t.same((await api.get(`/contacts/${contact.id}`)).json().email, 'jose@acme.es');

  const updated = await api.put(`/contacts/${contact.id}`, { firstName: 'José', lastName: 'Pérez Gil', email: '', tags: [] });
  t.equal(updated.statusCode, 200);
  t.match(updated.json(), { lastName: 'Pérez Gil', email: null, phone: null, tags: [] });

  t.equal((await api.del(`/contacts/${contact.id}`)).statusCode, 204);
  t.equal((await api.get(`/contacts/${contact.id}`)).statusCode, 404);
  t.equal((await api.del(`/contacts/${contact.id}`)).statusCode, 404);
  t.equal(await rowCount(me.userId), 0);
});

t.test('a second contact with the same email (any case) is a 409', async (t) => {
  const api = client(signToken(app).authorization);
  t.equal((await api.post('/contacts', { firstName: 'Ana', lastName: 'Ruiz', email: 'ana@x.es' })).statusCode, 201);
  const duplicate = await api.post('/contacts', { firstName: 'Ana', lastName: 'Otra', email: 'ANA@x.es' });
  t.equal(duplicate.statusCode, 409);
  t.match(duplicate.json().message, /correo/);
});

t.test('list: pagination, totals, search and tag filter', async (t) => {
  const me = signToken(app);
  const api = client(me.authorization);
  for (let i = 1; i <= 25; i++) {
    const res = await api.post('/contacts', {
      firstName: i === 7 ? 'Íñigo' : `Nombre${i}`,
      lastName: i === 7 ? 'Muñoz' : `Apellido${i}`,
      email: `c${i}@empresa${i % 3}.es`,
      company: `Empresa ${i % 3}`,
      tags: i % 5 === 0 ? ['vip'] : ['lead'],
    });
    t.equal(res.statusCode, 201);
  }
  const page1 = (await api.get('/contacts')).json();
  t.equal(page1.total, 25);
  t.equal(page1.page, 1);
  t.equal(page1.limit, 10, 'spec page size is 10');
  t.equal(page1.contacts.length, 10);
  t.equal(page1.contacts[0].firstName, 'Nombre25', 'newest first');
  const page3 = (await api.get('/contacts?page=3&limit=10')).json();
  t.equal(page3.contacts.length, 5);
  const seen = new Set([...page1.contacts, ...(await api.get('/contacts?page=2')).json().contacts, ...page3.contacts].map((c: Json) => c.id));
  t.equal(seen.size, 25, 'pages do not overlap');

  const accents = (await api.get('/contacts?search=inigo%20munoz')).json();
  t.equal(accents.total, 1, 'search ignores accents and case');
  t.equal(accents.contacts[0].lastName, 'Muñoz');
  t.equal((await api.get('/contacts?search=MUÑOZ')).json().total, 1);
  t.equal((await api.get('/contacts?search=empresa1.es')).json().total, 9, 'search covers email');
  t.equal((await api.get('/contacts?search=50%25')).json().total, 0, 'wildcards are literal');

  const vip = (await api.get('/contacts?tag=vip')).json();
  t.equal(vip.total, 5);
  t.ok(vip.contacts.every((c: { tags: string[] }) => c.tags.includes('vip')));

  t.same((await api.get('/contacts/stats')).json(), { total: 25, companies: 3, tags: 2, withEmail: 25 });
  t.same((await api.get('/contacts/tags')).json(), { tags: ['lead', 'vip'] });
});

t.test('another user: every route answers 404 and changes nothing', async (t) => {
  const owner = client(signToken(app).authorization);
  const contact = (await owner.post('/contacts', { firstName: 'Privado', lastName: 'Uno', email: 'p@x.es' })).json();
  const intruder = client(signToken(app).authorization);
  t.equal((await intruder.get(`/contacts/${contact.id}`)).statusCode, 404);
  const put = await intruder.put(`/contacts/${contact.id}`, { firstName: 'Hack', lastName: 'Eado' });
  t.equal(put.statusCode, 404);
  t.match(put.json(), { statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: 'Contacto no encontrado' });
  t.equal((await intruder.del(`/contacts/${contact.id}`)).statusCode, 404);
  t.equal((await intruder.get('/contacts')).json().total, 0);
  t.equal((await intruder.get('/contacts/stats')).json().total, 0);
  t.match((await owner.get(`/contacts/${contact.id}`)).json(), { firstName: 'Privado', lastName: 'Uno' });
});

t.test('bad input answers 400 (413 when too large) with a Spanish message and writes nothing', async (t) => {
  const me = signToken(app);
  const headers = { authorization: me.authorization, 'content-type': 'application/json' };
  const cases: [string, { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: string }, RegExp][] = [
    ['malformed JSON', { method: 'POST', url: '/contacts', payload: '{"firstName": "Ana",' }, /JSON válido/],
    ['wrong type', { method: 'POST', url: '/contacts', payload: '{"firstName": 123, "lastName": "B"}' }, /"firstName" debe ser de tipo texto/],
    ['unknown field', { method: 'POST', url: '/contacts', payload: '{"firstName": "A", "lastName": "B", "role": "admin"}' }, /Campo no permitido: "role"/],
    ['missing first name', { method: 'POST', url: '/contacts', payload: '{"lastName": "B"}' }, /^El nombre es requerido$/],
    ['blank last name', { method: 'POST', url: '/contacts', payload: '{"firstName": "A", "lastName": "   "}' }, /^El apellido es requerido$/],
    ['bad email', { method: 'POST', url: '/contacts', payload: '{"firstName": "A", "lastName": "B", "email": "no-es-correo"}' }, /^Correo inválido$/],
    ['tags not a list', { method: 'POST', url: '/contacts', payload: '{"firstName": "A", "lastName": "B", "tags": "vip"}' }, /lista/],
    ['array body', { method: 'POST', url: '/contacts', payload: '[]' }, /objeto JSON/],
    ['bad uuid', { method: 'PUT', url: '/contacts/not-a-uuid', payload: '{"firstName": "A", "lastName": "B"}' }, /Identificador inválido/],
    ['page=-1', { method: 'GET', url: '/contacts?page=-1' }, /"page" debe ser mayor o igual que 1/],
    ['limit=10^9', { method: 'GET', url: '/contacts?limit=1000000000' }, /"limit" debe ser menor o igual que 100/],
    ['limit=abc', { method: 'GET', url: '/contacts?limit=abc' }, /"limit" debe ser de tipo número entero/],
  ];
  for (const [name, request, message] of cases) {
    const res = await app.inject({ ...request, headers });
    // A body over the limit is refused as too large (413), everything else as bad (400).
    const [status, error] = name === 'oversized body' ? [413, 'Payload Too Large'] : [400, 'Bad Request'];
    t.equal(res.statusCode, status, `${name}: ${status}`);
    const body = res.json();
    t.match(body, { statusCode: status, error }, `${name}: error shape`);
    t.match(body.message, message, `${name}: message`);
  }
  const oversized = await app.inject({ method: 'POST', url: '/contacts', payload: JSON.stringify({ firstName: 'A'.repeat(2_000_000), lastName: 'B' }), headers });
  t.equal(oversized.statusCode, 413, 'oversized body: 413');
  t.match(oversized.json(), { statusCode: 413, error: 'Payload Too Large', message: /demasiado grande/ }, 'oversized body: shape and message');
  t.equal(await rowCount(me.userId), 0, 'nothing written');
});

t.test('no token, a garbage token or a token for another audience: 401', async (t) => {
  t.equal((await app.inject({ url: '/contacts' })).statusCode, 401);
  t.equal((await app.inject({ url: '/contacts', headers: { authorization: 'Bearer abc.def.ghi' } })).statusCode, 401);
  const foreign = app.jwt.sign({ sub: '5f1c5b7e-8d0a-4a8e-9a55-0a4b1f0d2c3e', jti: 'x' }, { aud: 'otra-app' });
  t.equal((await app.inject({ url: '/contacts', headers: { authorization: `Bearer ${foreign}` } })).statusCode, 401);
});

t.test('every write leaves its event in the outbox, in the same transaction', async (t) => {
  const me = signToken(app);
  const api = client(me.authorization);
  const contact = (await api.post('/contacts', { firstName: 'Eva', lastName: 'Luna', email: 'eva@x.es' })).json();
  await api.put(`/contacts/${contact.id}`, { firstName: 'Eva', lastName: 'Sol' });
  await api.del(`/contacts/${contact.id}`);
  await api.post('/contacts', { firstName: 'Sin', lastName: 'Email' });
  const events = await sql<{ type: string; data: Json }[]>`
    select type, data from contacts.outbox where user_id = ${me.userId} order by seq`;
  t.same(
    events.map((e) => e.type),
    ['contacts.contact.created', 'contacts.contact.updated', 'contacts.contact.deleted', 'contacts.contact.created'],
  );
  t.same(events[0]!.data, {
    contactId: contact.id,
    hasEmail: true,
    contact: { firstName: 'Eva', lastName: 'Luna', email: 'eva@x.es', phone: null, company: null, tags: [] },
  });
  t.same(events[2]!.data, { contactId: contact.id, contact: { firstName: 'Eva', lastName: 'Sol', email: null, phone: null, company: null, tags: [] } }, 'a deletion tells who went');
  t.same(events[3]!.data.hasEmail, false);
  const failed = await api.post('/contacts', { firstName: 'Sin', lastName: 'Email', email: 'eva@x.es' });
  t.equal(failed.statusCode, 201);
  const duplicate = await api.post('/contacts', { firstName: 'Otra', lastName: 'Vez', email: 'EVA@x.es' });
  t.equal(duplicate.statusCode, 409);
  const [count] = await sql<{ n: string }[]>`select count(*) as n from contacts.outbox where user_id = ${me.userId}`;
  t.equal(Number(count!.n), 5, 'a rolled-back write leaves no event');
});

t.test('each write names its member: created by one, changed by another, tagged, imported, merged, restored', async (t) => {
  const workspaceId = await insertAccount(sql);
  const [ana, luis] = [await insertAccount(sql), await insertAccount(sql)];
  await sql`insert into auth.members (workspace_id, user_id, role) values (${workspaceId}, ${ana}, 'admin'), (${workspaceId}, ${luis}, 'agent')`;
  const tokenOf = (sub: string, role: 'admin' | 'agent') => `Bearer ${app.jwt.sign({ sub, wid: workspaceId, role, jti: randomUUID(), ims: Date.now() })}`;
  const [asAna, asLuis] = [tokenOf(ana, 'admin'), tokenOf(luis, 'agent')];
  const [byAna, byLuis] = [client(asAna), client(asLuis)];
  const by = (contact: Json) => [contact.createdBy, contact.updatedBy];
  const eva = { firstName: 'Eva', lastName: 'Luna', email: 'eva@x.es', phone: '611 22 33 44' };

  const created = (await byAna.post('/contacts', eva)).json();
  t.same(by(created), [ana, ana], 'created');
  t.same(by((await byLuis.put(`/contacts/${created.id}`, { ...eva, lastName: 'Sol' })).json()), [ana, luis], 'changed by another member');
  t.same(by((await byLuis.get(`/contacts/${created.id}`)).json()), [ana, luis], 'as read back');
  await byAna.post('/contacts/bulk/tags', { selection: { ids: [created.id] }, add: ['vip'] });
  t.same(by((await byAna.get(`/contacts/${created.id}`)).json()), [ana, ana], 'bulk tags');

  const csv = 'firstName,lastName,email\nEva,Mar,eva@x.es\nNuevo,Contacto,nuevo@x.es\nSin,Correo,\n';
  const imported = await app.inject({ method: 'POST', url: '/contacts/import', headers: { authorization: asLuis, 'content-type': 'text/csv' }, payload: csv });
  t.match(imported.json(), { created: 2, updated: 1 });
  const listed = new Map(((await byAna.get('/contacts?limit=100')).json().contacts as Json[]).map((c) => [c.firstName, by(c)]));
  t.same(Object.fromEntries(listed), { Eva: [ana, luis], Nuevo: [luis, luis], Sin: [luis, luis] }, "an import names its member, on the rows it adds and those it changes");

  const twin = (await byLuis.post('/contacts', { firstName: 'Eva', lastName: 'Mar', phone: '+34611223344' })).json();
  t.same(by((await byAna.post(`/contacts/${created.id}/merge`, { ids: [twin.id] })).json()), [ana, ana], 'merge');
  const { undoToken } = (await byAna.post('/contacts/bulk/delete', { selection: { ids: [created.id] } })).json();
  await byLuis.post('/contacts/bulk/restore', { undoToken });
  t.same(by((await byAna.get(`/contacts/${created.id}`)).json()), [ana, luis], 'restored: its creator kept, the member who restored it last');
});
