import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);
const sql = platform.db.sql;

function api(authorization: string) {
  return {
    post: (url: string, payload: object) => app.inject({ method: 'POST', url, headers: { authorization }, payload }),
    get: (url: string) => app.inject({ url, headers: { authorization } }),
    delete: (url: string) => app.inject({ method: 'DELETE', url, headers: { authorization } }),
  };
}

async function storedViews(userId: string): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select count(*) as n from contacts.saved_views where user_id = ${userId}`;
  return Number(row!.n);
}

t.test('a saved view: created, listed by name, deleted', async (t) => {
  const me = signToken(app);
  const created = await api(me.authorization).post('/contacts/views', { name: '  Clientes VIP ', search: 'acme', tag: 'vip', sort: 'name' });
  t.equal(created.statusCode, 201);
  const view = created.json() as { id: string };
  t.match(view, { name: 'Clientes VIP', search: 'acme', tag: 'vip', sort: 'name', order: 'asc' }, 'trimmed; a name sort defaults to A-Z');
  const bare = await api(me.authorization).post('/contacts/views', { name: 'Todos' });
  t.match(bare.json(), { name: 'Todos', search: '', tag: '', sort: 'createdAt', order: 'desc' });

  const listed = (await api(me.authorization).get('/contacts/views')).json() as { views: { name: string }[] };
  t.same(listed.views.map((v) => v.name), ['Clientes VIP', 'Todos'], 'ordered by name');

  t.equal((await api(me.authorization).delete(`/contacts/views/${view.id}`)).statusCode, 204);
  t.same(((await api(me.authorization).get('/contacts/views')).json() as { views: { name: string }[] }).views.map((v) => v.name), ['Todos']);
  const again = await api(me.authorization).delete(`/contacts/views/${view.id}`);
  t.equal(again.statusCode, 404, 'already gone');
});

t.test('one name per user (without case): 409; another user may use it', async (t) => {
  const me = signToken(app);
  t.equal((await api(me.authorization).post('/contacts/views', { name: 'Proveedores' })).statusCode, 201);
  const taken = await api(me.authorization).post('/contacts/views', { name: 'PROVEEDORES', tag: 'x' });
  t.equal(taken.statusCode, 409);
  t.match(taken.json(), { message: 'Ya tienes una vista con ese nombre' });
  t.equal(await storedViews(me.userId), 1, 'nothing written');
  const other = signToken(app);
  t.equal((await api(other.authorization).post('/contacts/views', { name: 'Proveedores' })).statusCode, 201);
});

t.test("another user's view: not listed, not deletable (404)", async (t) => {
  const owner = signToken(app);
  const intruder = signToken(app);
  const view = (await api(owner.authorization).post('/contacts/views', { name: 'Mía' })).json() as { id: string };
  t.same((await api(intruder.authorization).get('/contacts/views')).json(), { views: [] });
  const res = await api(intruder.authorization).delete(`/contacts/views/${view.id}`);
  t.equal(res.statusCode, 404);
  t.match(res.json(), { message: 'Vista no encontrada' });
  t.equal(await storedViews(owner.userId), 1, 'still there');
});

t.test('bad input: 400 in Spanish, nothing written', async (t) => {
  const me = signToken(app);
  const cases: [object, RegExp][] = [
    [{}, /nombre de la vista es requerido/],
    [{ name: '   ' }, /nombre de la vista es requerido/],
    [{ name: 'x'.repeat(61) }, /como máximo 60 caracteres/],
    [{ name: 'Vista', sort: 'email' }, /"sort" tiene un valor no permitido/],
    [{ name: 'Vista', order: 'up' }, /"order" tiene un valor no permitido/],
    [{ name: 'Vista', search: 'a\u0000b' }, /caracteres no válidos/],
    [{ name: 'Vista', extra: 1 }, /./],
  ];
  for (const [body, message] of cases) {
    const res = await api(me.authorization).post('/contacts/views', body);
    t.equal(res.statusCode, 400, JSON.stringify(body));
    t.match((res.json() as { message: string }).message, message);
  }
  t.equal((await api(me.authorization).delete('/contacts/views/no-es-un-id')).statusCode, 400);
  t.equal(await storedViews(me.userId), 0);
  t.equal((await app.inject({ url: '/contacts/views' })).statusCode, 401, 'signed in only');
});

function preview(authorization: string, body: string, type = 'text/csv') {
  return app.inject({ method: 'POST', url: '/contacts/import/preview', headers: { authorization, 'content-type': type }, payload: body });
}

t.test('import preview: a Google Contacts CSV, its proposed mapping, the unmapped columns and the first rows', async (t) => {
  const me = signToken(app);
  const rows = Array.from({ length: 8 }, (_, i) => `Persona ${i},Persona,,Apellido${i},* myContacts,correo${i}@acme.es,+34 611 22 33 4${i},Acme`);
  const csv = ['Name,Given Name,Additional Name,Family Name,Labels,E-mail 1 - Value,Phone 1 - Value,Organization 1 - Name', ...rows].join('\n');
  const res = await preview(me.authorization, csv);
  t.equal(res.statusCode, 200);
  const body = res.json() as { format: string; mapping: string[]; unmapped: string[]; rows: { line: number; cells: string[] }[] };
  t.equal(body.format, 'csv');
  t.same(body.mapping, ['', 'firstName', '', 'lastName', 'tags', 'email', 'phone', 'company'], 'the same recognition as the import');
  t.same(body.unmapped, ['Name', 'Additional Name']);
  t.equal(body.rows.length, 5, 'the first rows only');
  t.same(body.rows[0], { line: 2, cells: ['Persona 0', 'Persona', '', 'Apellido0', '* myContacts', 'correo0@acme.es', '+34 611 22 33 40', 'Acme'] });
  t.same((await api(me.authorization).get('/contacts')).json(), { contacts: [], total: 0, page: 1, limit: 10 }, 'nothing written');
});

t.test('import preview: Outlook, Spanish headers with ";", vCard; an empty file is a 400', async (t) => {
  const me = signToken(app);
  const outlook = (await preview(me.authorization, 'First Name,Last Name,E-mail Address,Mobile Phone,Business Phone,Company\nAna,Ruiz,a@b.es,600,,X')).json() as { mapping: string[] };
  t.same(outlook.mapping, ['firstName', 'lastName', 'email', 'phone', 'phone', 'company']);
  const spanish = (await preview(me.authorization, 'Nombre;Apellidos;Correo electrónico;Teléfono móvil;Empresa;Notas\nAna;Ruiz;a@b.es;600;X;n')).json() as { mapping: string[]; unmapped: string[] };
  t.same(spanish.mapping, ['firstName', 'lastName', 'email', 'phone', 'company', '']);
  t.same(spanish.unmapped, ['Notas']);
  const vcard = (await preview(me.authorization, 'BEGIN:VCARD\nVERSION:3.0\nN:Ruiz;Ana;;;\nEMAIL:ana@b.es\nTEL:+34600\nEND:VCARD\n', 'text/vcard')).json() as { format: string; rows: unknown[] };
  t.equal(vcard.format, 'vcard');
  t.same(vcard.rows, [{ line: 1, cells: ['Ana', 'Ruiz', 'ana@b.es', '+34600', '', ''] }]);
  const empty = await preview(me.authorization, '');
  t.equal(empty.statusCode, 400);
  t.match(empty.json(), { message: /vacío|archivo CSV/ });
});
