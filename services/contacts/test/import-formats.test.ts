import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);

function importFile(authorization: string, body: string, query = '', type = 'text/csv') {
  return app.inject({ method: 'POST', url: `/contacts/import${query}`, headers: { authorization, 'content-type': type }, payload: body });
}

async function contacts(authorization: string) {
  const res = await app.inject({ url: '/contacts?limit=100&sort=name', headers: { authorization } });
  return (res.json() as { contacts: { firstName: string; lastName: string; email: string | null; phone: string | null; company: string | null; tags: string[] }[] }).contacts.map(
    ({ firstName, lastName, email, phone, company, tags }) => ({ firstName, lastName, email, phone, company, tags }),
  );
}

t.test('a Google Contacts export: its headers, labels without the system ones, unmapped columns listed', async (t) => {
  const me = signToken(app);
  const google = [
    'Name,Given Name,Additional Name,Family Name,Labels,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Organization 1 - Name,Notes',
    'Ana García,Ana,,García,* myContacts ::: Clientes,* Work,ana@acme.es,Mobile,+34 611 22 33 44,Acme,vip',
    'Luis Pérez,Luis,,Pérez,* starred,,,,600 000 001,,',
  ].join('\n');
  const res = await importFile(me.authorization, google);
  t.same(res.json(), {
    created: 2,
    updated: 0,
    skipped: 0,
    errors: [],
    unmappedColumns: ['Name', 'Additional Name', 'E-mail 1 - Type', 'Phone 1 - Type', 'Notes'],
  });
  t.same(await contacts(me.authorization), [
    { firstName: 'Ana', lastName: 'García', email: 'ana@acme.es', phone: '+34 611 22 33 44', company: 'Acme', tags: ['Clientes'] },
    { firstName: 'Luis', lastName: 'Pérez', email: null, phone: '600 000 001', company: null, tags: [] },
  ]);
});

t.test('an Outlook export: the first non-empty of its phones; Spanish headers', async (t) => {
  const me = signToken(app);
  const outlook = 'First Name,Last Name,E-mail Address,Mobile Phone,Business Phone,Company\nEva,Mora,eva@mora.es,,91 123 45 67,Mora SL\n';
  t.same((await importFile(me.authorization, outlook)).json(), { created: 1, updated: 0, skipped: 0, errors: [] });
  const spanish = 'Nombre;Apellidos;Correo electrónico;Teléfono móvil;Empresa\nJuan;López Gil;juan@x.es;622 33 44 55;Taller\n';
  t.same((await importFile(me.authorization, spanish)).json(), { created: 1, updated: 0, skipped: 0, errors: [] });
  t.same(await contacts(me.authorization), [
    { firstName: 'Eva', lastName: 'Mora', email: 'eva@mora.es', phone: '91 123 45 67', company: 'Mora SL', tags: [] },
    { firstName: 'Juan', lastName: 'López Gil', email: 'juan@x.es', phone: '622 33 44 55', company: 'Taller', tags: [] },
  ]);
});

t.test('a mapping chosen by the user wins over the recognised headers; a bad one is a 400 before reading', async (t) => {
  const me = signToken(app);
  const file = 'Persona,Apellido,Correo,Notas\nRosa,Vidal,rosa@x.es,algo\n';
  const refused = await importFile(me.authorization, file);
  t.equal(refused.statusCode, 400, 'no first-name column without a mapping');
  const map = encodeURIComponent(JSON.stringify({ Persona: 'firstName', Notas: '' }));
  t.same((await importFile(me.authorization, file, `?map=${map}`)).json(), { created: 1, updated: 0, skipped: 0, errors: [] }, 'an ignored column is not listed as unmapped');
  for (const bad of ['no-json', '[1]', JSON.stringify({ Persona: 'cumpleaños' })]) {
    const res = await importFile(me.authorization, file, `?map=${encodeURIComponent(bad)}`);
    t.equal(res.statusCode, 400, bad);
    t.match(res.json().message, /asignación de columnas/);
  }
  t.equal((await contacts(me.authorization)).length, 1);
});

t.test('a vCard file from a phone', async (t) => {
  const me = signToken(app);
  const vcf = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    'N:Ruiz Gómez;Marta;;;',
    'FN:Marta Ruiz Gómez',
    'item1.EMAIL;TYPE=INTERNET:marta@ruiz.es',
    'TEL;TYPE=CELL:+34 633 44 55 66',
    'ORG:Ruiz\\, Gómez y Asociados;Ventas',
    'CATEGORIES:familia,vip',
    'END:VCARD',
    'BEGIN:VCARD',
    'VERSION:2.1',
    'FN:Pedro Sol',
    'TEL;CELL:644',
    ' 555666',
    'END:VCARD',
    'BEGIN:VCARD',
    'VERSION:3.0',
    'EMAIL:sin-nombre@x.es',
    'END:VCARD',
    '',
  ].join('\r\n');
  const res = await importFile(me.authorization, vcf, '', 'text/vcard');
  t.same(res.json(), { created: 2, updated: 0, skipped: 0, errors: [{ line: 16, message: 'Falta el nombre' }] });
  t.same(await contacts(me.authorization), [
    { firstName: 'Marta', lastName: 'Ruiz Gómez', email: 'marta@ruiz.es', phone: '+34 633 44 55 66', company: 'Ruiz, Gómez y Asociados', tags: ['familia', 'vip'] },
    { firstName: 'Pedro', lastName: 'Sol', email: null, phone: '644555666', company: null, tags: [] },
  ]);
});
