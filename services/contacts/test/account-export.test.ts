import t from 'tap';
import { buildServiceApp, createTestPlatform, readAccountExportPart, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);
const sql = platform.db.sql;

t.test('the contacts part: every contact in the CSV the export writes and as JSON, across pages, the owner\'s only', async (t) => {
  const owner = signToken(app);
  const other = signToken(app);
  // More than one page (5,000 rows), with rows created in the same microsecond: the keyset still takes each once.
  await sql`
    insert into contacts.contacts (user_id, first_name, last_name, email, phone, tags, created_at)
    select ${owner.userId}, 'Nombre' || i, 'Apellido', 'c' || i || '@ejemplo.es', null, '{}', '2026-11-01T00:00:00Z'::timestamptz + (i / 3) * interval '1 second'
    from generate_series(1, 5003) as i`;
  await sql`insert into contacts.contacts (user_id, first_name, last_name, tags, created_by) values (${owner.userId}, '=SUM(A1)', 'Pérez, "El Jefe"', '{vip,cliente}', ${owner.userId})`;
  await sql`insert into contacts.contacts (user_id, first_name, last_name, tags) values (${other.userId}, 'Ajeno', 'Otro', '{}')`;
  await sql`
    insert into contacts.trash (batch_id, user_id, id, first_name, last_name, email, tags, created_at, updated_at)
    values (gen_random_uuid(), ${owner.userId}, gen_random_uuid(), 'Borrado', 'Reciente', 'borrado@ejemplo.es', '{}', now(), now())`;
  await sql`insert into contacts.saved_views (user_id, name, tag) values (${owner.userId}, 'Clientes VIP', 'vip')`;

  const { files, pages } = await readAccountExportPart(app, '/contacts/account-export', owner.authorization);
  t.ok(pages >= 2, 'several pages');
  t.same([...files.keys()], ['contactos.csv', 'contactos.json', 'papelera.json', 'vistas-guardadas.json']);
  t.match(JSON.parse(files.get('papelera.json')!.toString('utf8')), [{ firstName: 'Borrado', email: 'borrado@ejemplo.es' }], 'the trash');
  t.match(JSON.parse(files.get('vistas-guardadas.json')!.toString('utf8')), [{ name: 'Clientes VIP', tag: 'vip' }], 'the saved views');
  const csv = files.get('contactos.csv')!.toString('utf8');
  const lines = csv.split('\r\n').filter(Boolean);
  t.equal(lines[0], '\uFEFFfirstName,lastName,email,phone,company,tags', 'the header import reads');
  t.equal(lines.length, 5005, 'every contact once');
  t.equal(new Set(lines).size, 5005, 'none twice');
  t.ok(lines.includes(`'=SUM(A1),"Pérez, ""El Jefe""",,,,"vip;cliente"`), 'formula-safe and quoted, as the contacts export');
  t.notOk(csv.includes('Ajeno'), 'another user\'s contact is not there');
  const json = JSON.parse(files.get('contactos.json')!.toString('utf8')) as { id: string; firstName: string; createdAt: string; createdBy: string | null; updatedBy: string | null }[];
  t.equal(json.length, 5004);
  t.equal(new Set(json.map((c) => c.id)).size, 5004);
  const typed = json.find((c) => c.firstName === '=SUM(A1)');
  t.match(typed, { lastName: 'Pérez, "El Jefe"', tags: ['vip', 'cliente'] }, 'JSON keeps the values as typed');
  t.same([typed?.createdBy, typed?.updatedBy], [owner.userId, null], 'and the members who wrote it');
});

t.test('a cursor that is not one the part gave is a 400 in Spanish', async (t) => {
  const owner = signToken(app);
  for (const cursor of ['9~', 'nada', '0~%%%']) {
    const res = await app.inject({ url: '/contacts/account-export', query: { cursor }, headers: { authorization: owner.authorization } });
    t.equal(res.statusCode, 400, cursor);
    t.equal(res.json().message, 'El cursor de la exportación no es válido');
  }
});
