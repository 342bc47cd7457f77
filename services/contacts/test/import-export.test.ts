import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);

function importCsv(authorization: string, body: string | Buffer, query = '') {
  return app.inject({
    method: 'POST',
    url: `/contacts/import${query}`,
    headers: { authorization, 'content-type': 'text/csv' },
    payload: body,
  });
}

async function listAll(authorization: string) {
  const res = await app.inject({ url: '/contacts?limit=100', headers: { authorization } });
  return res.json() as { total: number; contacts: { id: string; firstName: string; lastName: string; email: string | null; phone: string | null; company: string | null; tags: string[] }[] };
}

t.test('English headers, tags split on ";", bad lines reported with their line number', async (t) => {
  const me = signToken(app);
  const csv = [
    'firstName,lastName,email,phone,company,tags',
    'Ana,García,ana@acme.es,600111222,ACME,vip;cliente',
    ',SinNombre,x@x.es,,,',
    'Luis,Pérez,no-es-correo,,,',
    'Marta,"Ruiz, de la Vega",marta@beta.es,,"Beta, S.L.",lead',
    '',
    'Pedro,Sin,,611,,',
  ].join('\n');
  const res = await importCsv(me.authorization, csv);
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    created: 3,
    updated: 0,
    skipped: 0,
    errors: [
      { line: 3, message: 'Falta el nombre' },
      { line: 4, message: 'Correo inválido: "no-es-correo"' },
    ],
  });
  const { contacts, total } = await listAll(me.authorization);
  t.equal(total, 3);
  const marta = contacts.find((c) => c.firstName === 'Marta');
  t.match(marta, { lastName: 'Ruiz, de la Vega', company: 'Beta, S.L.', tags: ['lead'] });
  t.same(contacts.find((c) => c.firstName === 'Ana')?.tags.sort(), ['cliente', 'vip']);
});

t.test('Spanish headers, ";"-delimited file, Latin-1 bytes and a BOM', async (t) => {
  const me = signToken(app);
  const latin1 = Buffer.from('nombre;apellido;correo;teléfono;empresa;etiquetas\nJosé;Muñoz;jose@x.es;600;Ñandú SA;a,b\n', 'latin1');
  const res = await importCsv(me.authorization, latin1);
  t.same(res.json(), { created: 1, updated: 0, skipped: 0, errors: [] });
  t.match((await listAll(me.authorization)).contacts[0], { firstName: 'José', lastName: 'Muñoz', phone: '600', company: 'Ñandú SA', tags: ['a', 'b'] });

  const other = signToken(app);
  const bom = '\uFEFFNombre,Apellido,Correo\nAna,López,ana@x.es\n';
  t.same((await importCsv(other.authorization, bom)).json(), { created: 1, updated: 0, skipped: 0, errors: [] });
});

t.test('a line without email whose phone a contact already has (however it is written) is skipped with its reason, not duplicated', async (t) => {
  const me = signToken(app);
  await importCsv(me.authorization, 'firstName,lastName,email,phone,company,tags\nRosa,Vidal,,+34 611 22 33 44,,\nPedro,Gil,pedro@acme.es,622 000 111,,\n');
  const again = await importCsv(
    me.authorization,
    [
      'firstName,lastName,email,phone,company,tags',
      'Rosa,Vidal,,611223344,,',
      'Pedro,Gil,,0034 622 000 111,,',
      'Nuevo,Cliente,,633 444 555,,',
      'Nuevo,Otra Vez,,+34633444555,,',
      'Sin,Teléfono,,,,',
      ',Sin nombre,,699 999 999,,',
    ].join('\n'),
  );
  const dry = await importCsv(me.authorization, 'firstName,lastName,email,phone,company,tags\nRosa,Vidal,,611223344,,\n', '?dryRun=true');
  t.same(again.json(), {
    created: 2,
    updated: 0,
    skipped: 3,
    errors: [{ line: 7, message: 'Falta el nombre' }],
    skippedLines: [
      { line: 2, reason: 'ya existe (mismo teléfono)' },
      { line: 3, reason: 'ya existe (mismo teléfono)' },
      { line: 5, reason: 'repetida en el archivo (mismo teléfono)' },
    ],
  });
  t.same(dry.json(), { created: 0, updated: 0, skipped: 1, errors: [], skippedLines: [{ line: 2, reason: 'ya existe (mismo teléfono)' }] }, 'a dry run says the same');
  const { contacts, total } = await listAll(me.authorization);
  t.equal(total, 4, 'Rosa, Pedro, Nuevo Cliente and Sin Teléfono: nobody twice');
  t.same(contacts.filter((c) => c.firstName === 'Rosa').length, 1);
});

t.test('upsert by email, case-insensitively; unchanged rows are skipped; blanks keep data', async (t) => {
  const me = signToken(app);
  await importCsv(me.authorization, 'firstName,lastName,email,phone,company,tags\nAna,García,ana@acme.es,600,ACME,vip\nBea,Gil,bea@acme.es,,,\n');
  const second = await importCsv(
    me.authorization,
    'firstName,lastName,email,phone,company,tags\nAna,García López,ANA@acme.es,,,nuevo\nBea,Gil,bea@acme.es,,,\nCarla,Sanz,carla@acme.es,,,\nCarla,Sanz Mora,carla@ACME.es,,,\n',
  );
  t.same(
    second.json(),
    {
      created: 1,
      updated: 1,
      skipped: 2,
      errors: [],
      skippedLines: [
        { line: 3, reason: 'ya existe (mismo correo)' },
        { line: 4, reason: 'repetida en el archivo (mismo correo)' },
      ],
    },
    'Bea unchanged, first Carla superseded by the later line, each skip with its reason',
  );
  const { contacts, total } = await listAll(me.authorization);
  t.equal(total, 3);
  t.match(contacts.find((c) => c.firstName === 'Ana'), { lastName: 'García López', email: 'ana@acme.es', phone: '600', company: 'ACME' });
  t.same(contacts.find((c) => c.firstName === 'Ana')?.tags.sort(), ['nuevo', 'vip']);
  t.equal(contacts.find((c) => c.firstName === 'Carla')?.lastName, 'Sanz Mora', 'the last line of the file wins');
});

t.test('dry run reports exact counts and writes nothing', async (t) => {
  const me = signToken(app);
  const res = await importCsv(me.authorization, 'nombre,apellido,correo\nUno,Dos,uno@x.es\nTres,,\n', '?dryRun=true');
  t.same(res.json(), { created: 1, updated: 0, skipped: 0, errors: [{ line: 3, message: 'Falta el apellido' }] });
  t.equal((await listAll(me.authorization)).total, 0);
  const [events] = await platform.db.sql<{ n: string }[]>`select count(*) as n from contacts.outbox where user_id = ${me.userId}`;
  t.equal(Number(events!.n), 0);
});

t.test('one imported event with the counts, and the contacts written with their fields in the batch\'s written event', async (t) => {
  const me = signToken(app);
  await importCsv(me.authorization, 'nombre,apellido,correo\nUno,Dos,uno@x.es\nTres,,\n');
  const events = await platform.db.sql<{ type: string; data: Record<string, unknown> }[]>`select type, data from contacts.outbox where user_id = ${me.userId} order by seq`;
  const [contact] = (await listAll(me.authorization)).contacts;
  t.same(events, [
    { type: 'contacts.contact.imported', data: { created: 1, updated: 0, skipped: 0, failed: 1 } },
    {
      type: 'contacts.import.written',
      data: { contacts: [{ contactId: contact!.id, created: true, contact: { firstName: 'Uno', lastName: 'Dos', email: 'uno@x.es', phone: null, company: null, tags: [] } }] },
    },
  ]);

  // The same address again with a new name: an update, naming what changed.
  await importCsv(me.authorization, 'nombre,apellido,correo\nUna,Dos,uno@x.es\n');
  const [written] = await platform.db.sql<{ data: Record<string, unknown> }[]>`
    select data from contacts.outbox where user_id = ${me.userId} and type = 'contacts.import.written' order by seq desc limit 1`;
  t.same(written?.data, {
    contacts: [{ contactId: contact!.id, created: false, changed: ['firstName'], contact: { firstName: 'Una', lastName: 'Dos', email: 'uno@x.es', phone: null, company: null, tags: [] } }],
  });
  const [perContact] = await platform.db.sql<{ n: number }[]>`
    select count(*)::int as n from contacts.outbox where user_id = ${me.userId} and type in ('contacts.contact.created', 'contacts.contact.updated')`;
  t.equal(perContact!.n, 0, 'no event per contact');
});

t.test('files without the name columns, empty files and non-CSV bodies are refused', async (t) => {
  const me = signToken(app);
  const noHeader = await importCsv(me.authorization, 'email,phone\na@x.es,1\n');
  t.equal(noHeader.statusCode, 400);
  t.match(noHeader.json().message, /cabecera/);
  const empty = await importCsv(me.authorization, '');
  t.equal(empty.statusCode, 400);
  const json = await app.inject({ method: 'POST', url: '/contacts/import', headers: { authorization: me.authorization }, payload: { a: 1 } });
  t.equal(json.statusCode, 400);
  t.match(json.json().message, /text\/csv/);
  t.equal((await listAll(me.authorization)).total, 0);
});

t.test('a large import streams and counts every row', async (t) => {
  const me = signToken(app);
  const rows = 20_000;
  const lines = ['firstName,lastName,email,phone,company,tags'];
  for (let i = 0; i < rows; i++) lines.push(`N${i},A${i},u${i}@bulk.es,${600000000 + i},Empresa ${i % 50},t${i % 7}`);
  lines.splice(5001, 0, 'Roto,,,,,');
  const res = await importCsv(me.authorization, lines.join('\n'));
  t.same(res.json(), { created: rows, updated: 0, skipped: 0, errors: [{ line: 5002, message: 'Falta el apellido' }] });
  const stats = await app.inject({ url: '/contacts/stats', headers: { authorization: me.authorization } });
  t.same(stats.json(), { total: rows, companies: 50, tags: 7, withEmail: rows });
});

t.test('export streams CSV that imports back unchanged', async (t) => {
  const me = signToken(app);
  const source = 'firstName,lastName,email,phone,company,tags\nAna,"García, hija",ana@x.es,+34 600,"Beta ""B""",vip;cliente\nLuis,Sin,,,,\n';
  await importCsv(me.authorization, source);
  const res = await app.inject({ url: '/contacts/export', headers: { authorization: me.authorization } });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /text\/csv/);
  t.match(res.headers['content-disposition'], /attachment; filename="contactos-\d{4}-\d{2}-\d{2}\.csv"/);
  t.match(res.body, /^\uFEFFfirstName,lastName,email,phone,company,tags\r\n/);

  const copy = signToken(app);
  t.same((await importCsv(copy.authorization, res.rawPayload)).json(), { created: 2, updated: 0, skipped: 0, errors: [] });
  const strip = (c: { firstName: string; lastName: string; email: string | null; phone: string | null; company: string | null; tags: string[] }) =>
    ({ firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone, company: c.company, tags: [...c.tags].sort() });
  const byName = (a: { firstName: string }, b: { firstName: string }) => a.firstName.localeCompare(b.firstName);
  t.same((await listAll(copy.authorization)).contacts.map(strip).sort(byName), (await listAll(me.authorization)).contacts.map(strip).sort(byName));
});

t.test('a large import refreshes the planner statistics, so search uses the trigram index at once', async (t) => {
  const me = signToken(app);
  const lines = ['firstName,lastName,email'];
  for (let i = 0; i < 12_000; i++) lines.push(`Nombre${i},Apellido${i},p${i}@stats.es`);
  t.equal((await importCsv(me.authorization, lines.join('\n'))).json().created, 12_000);
  const [stats] = await platform.db.sql<{ reltuples: number }[]>`
    select reltuples from pg_class where oid = 'contacts.contacts'::regclass`;
  t.ok(stats!.reltuples >= 12_000, `the planner knows the table's size (${stats!.reltuples} rows)`);
  const plan = await platform.db.sql<{ 'QUERY PLAN': string }[]>`
    explain select id from contacts.contacts where user_id = ${me.userId} and search like contacts.fold('%nombre1199%')`;
  t.match(plan.map((r) => r['QUERY PLAN']).join('\n'), /contacts_search_trgm/, 'search goes through the trigram index');
});
