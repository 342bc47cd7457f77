import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);

function importFile(authorization: string, body: string, query = '') {
  return app.inject({ method: 'POST', url: `/contacts/import${query}`, headers: { authorization, 'content-type': 'text/csv' }, payload: body });
}

async function contacts(authorization: string) {
  const res = await app.inject({ url: '/contacts?limit=100&sort=name', headers: { authorization } });
  return (res.json() as { contacts: { firstName: string; lastName: string; email: string | null; phone: string | null; company: string | null; tags: string[] }[] }).contacts.map(
    ({ firstName, lastName, email, phone, company, tags }) => ({ firstName, lastName, email, phone, company, tags }),
  );
}

t.test('tags split on ";" whatever the file delimiter: a quoted "cliente;proveedor" gives two tags', async (t) => {
  for (const delimiter of [',', ';']) {
    const me = signToken(app);
    const file = [['nombre', 'apellido', 'etiquetas'].join(delimiter), ['Ana', 'Ruiz', '"cliente;proveedor"'].join(delimiter)].join('\r\n');
    t.same((await importFile(me.authorization, file)).json(), { created: 1, updated: 0, skipped: 0, errors: [] }, `delimiter ${delimiter}`);
    t.same((await contacts(me.authorization))[0]!.tags, ['cliente', 'proveedor'], `delimiter ${delimiter}`);
  }
  const me = signToken(app);
  t.same((await importFile(me.authorization, 'nombre;apellido;etiquetas\r\nLuis;Sanz;"vip, familia|amigos"')).json().created, 1);
  t.same((await contacts(me.authorization))[0]!.tags, ['vip', 'familia', 'amigos'], "',' and '|' still split in a ';' file");
});

t.test('the Excel export: ";", BOM, the form\'s Spanish headers, phones as written; it imports back unchanged', async (t) => {
  const me = signToken(app);
  const people = [
    { firstName: 'María José', lastName: 'Ibáñez', email: 'mj@panaderia.es', phone: '+34 622 111 222', company: 'Horno; Pan', tags: ['cliente', 'proveedor'] },
    { firstName: '+cmd|\' /C calc\'!A0', lastName: '=1+1', email: null, phone: '-2+3', company: '@SUMA(A1)', tags: ['+x'] },
  ];
  for (const { email, ...rest } of people) {
    const payload = email ? { ...rest, email } : rest;
    t.equal((await app.inject({ method: 'POST', url: '/contacts', headers: { authorization: me.authorization }, payload })).statusCode, 201);
  }
  const res = await app.inject({ url: '/contacts/export?format=excel', headers: { authorization: me.authorization } });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/csv; charset=utf-8/);
  t.match(res.headers['content-disposition'], /attachment; filename="contactos-excel-\d{4}-\d{2}-\d{2}\.csv"/);
  t.equal(res.rawPayload.subarray(0, 3).toString('hex'), 'efbbbf', 'UTF-8 BOM');
  const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
  t.equal(lines[0], 'Nombre;Apellido;Correo electrónico;Teléfono;Empresa;Etiquetas');
  t.ok(lines.includes('María José;Ibáñez;mj@panaderia.es;+34 622 111 222;"Horno; Pan";"cliente;proveedor"'), 'a real phone is data: no apostrophe');
  t.ok(lines.includes(`'+cmd|' /C calc'!A0;'=1+1;;'-2+3;'@SUMA(A1);'+x`), 'formulas are neutralised');

  const copy = signToken(app);
  t.same((await importFile(copy.authorization, res.body)).json(), { created: 2, updated: 0, skipped: 0, errors: [] });
  t.same(await contacts(copy.authorization), await contacts(me.authorization), 'the Excel file imports back unchanged');
});

t.test('the default export is unchanged (field names, ","), the selection export takes the format too, a bad format is a 400', async (t) => {
  const me = signToken(app);
  const created = await app.inject({ method: 'POST', url: '/contacts', headers: { authorization: me.authorization }, payload: { firstName: 'Ana', lastName: 'Ruiz', phone: '+34 600 11 22 33', tags: ['a', 'b'] } });
  const plain = await app.inject({ url: '/contacts/export', headers: { authorization: me.authorization } });
  t.equal(plain.body, '\uFEFFfirstName,lastName,email,phone,company,tags\r\nAna,Ruiz,,+34 600 11 22 33,,"a;b"\r\n');
  t.match(plain.headers['content-disposition'], /filename="contactos-\d{4}-\d{2}-\d{2}\.csv"/);
  const picked = await app.inject({
    method: 'POST',
    url: '/contacts/export?format=excel',
    headers: { authorization: me.authorization },
    payload: { selection: { ids: [created.json().id] } },
  });
  t.equal(picked.body, '\uFEFFNombre;Apellido;Correo electrónico;Teléfono;Empresa;Etiquetas\r\nAna;Ruiz;;+34 600 11 22 33;;"a;b"\r\n');
  const bad = await app.inject({ url: '/contacts/export?format=xlsx', headers: { authorization: me.authorization } });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().message, /Formato de exportación no válido/);
});
