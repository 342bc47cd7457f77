import t from 'tap';
import { CONTACTS_TOTAL_CAP } from '@asistente/contracts';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';
import { ContactsRepository, DEFAULT_ORDER, sqlLiteral } from '../src/domain/contacts.repository.js';
import { SearchTotals } from '../src/domain/search-totals.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);
const sql = platform.db.sql;

interface ListBody {
  contacts: { id: string; firstName: string; lastName: string; company: string | null; phone: string | null }[];
  total: number;
  totalCapped?: boolean;
}

async function list(authorization: string, query: string): Promise<ListBody> {
  const res = await app.inject({ url: `/contacts?${query}`, headers: { authorization } });
  t.equal(res.statusCode, 200, `GET /contacts?${query}`);
  return res.json() as ListBody;
}

t.test('a search matching more than the cap answers the cap and says so; under it the exact total', async (t) => {
  const me = signToken(app);
  const rows = CONTACTS_TOTAL_CAP + 50;
  await sql`
    insert into contacts.contacts (user_id, first_name, last_name, email, created_at)
    select ${me.userId}, 'Nombre' || i, 'Común', 'c' || i || '@x.es', now() - (i || ' seconds')::interval
    from generate_series(1, ${rows}) i`;

  const broad = await list(me.authorization, 'search=comun&limit=10');
  t.equal(broad.total, CONTACTS_TOTAL_CAP);
  t.equal(broad.totalCapped, true);
  t.equal(broad.contacts.length, 10);
  t.same(broad.contacts.map((c) => c.firstName).slice(0, 3), ['Nombre1', 'Nombre2', 'Nombre3'], 'still newest first');
  const second = await list(me.authorization, 'search=comun&limit=10&page=2');
  t.same(second.contacts.map((c) => c.firstName), Array.from({ length: 10 }, (_, i) => `Nombre${i + 11}`), 'the next page of a capped search');
  t.equal(second.totalCapped, true);
  const byName = await list(me.authorization, 'search=com&limit=3&sort=name&order=desc');
  t.same(byName.contacts.map((c) => c.firstName), ['Nombre999', 'Nombre998', 'Nombre997'], 'a capped search in another order');

  const narrow = await list(me.authorization, 'search=nombre104');
  t.equal(narrow.total, 11, 'Nombre104 and Nombre1040..1049');
  t.notOk('totalCapped' in narrow, 'an exact total carries no flag');
  t.same(narrow.contacts.map((c) => c.firstName).sort(), ['Nombre104', ...Array.from({ length: 9 }, (_, i) => `Nombre104${i}`)].sort().slice(0, 10));

  const none = await list(me.authorization, 'search=zq');
  t.same({ total: none.total, contacts: none.contacts }, { total: 0, contacts: [] });
  const pastEnd = await list(me.authorization, 'search=nombre104&page=5');
  t.same({ total: pastEnd.total, contacts: pastEnd.contacts }, { total: 11, contacts: [] }, 'a page past the end still tells the total');

  const everything = await list(me.authorization, 'search=e');
  t.equal(everything.totalCapped, true, 'a one-letter term that matches everything');
});

t.test('phone search by digits whatever the formatting', async (t) => {
  const me = signToken(app);
  const authorization = me.authorization;
  for (const phone of ['+34611223344', '+34 622-33-44-55', '(633) 44 55 66']) {
    const res = await app.inject({ method: 'POST', url: '/contacts', headers: { authorization }, payload: { firstName: 'Tel', lastName: phone, phone } });
    t.equal(res.statusCode, 201);
  }
  t.same((await list(authorization, 'search=611%2022%2033%2044')).contacts.map((c) => c.phone), ['+34611223344']);
  t.same((await list(authorization, 'search=622334455')).contacts.map((c) => c.phone), ['+34 622-33-44-55']);
  t.same((await list(authorization, 'search=633-445')).contacts.map((c) => c.phone), ['(633) 44 55 66']);
  t.same((await list(authorization, 'search=%2B34')).total, 2, 'a prefix typed with its plus sign');
});

t.test('sort by name, company and date added, both ways, filtered or not', async (t) => {
  const me = signToken(app);
  const people = [
    ['Carmen', 'Ruiz', 'Beta'],
    ['ana', 'López', null],
    ['Bruno', 'Díaz', 'alfa'],
  ] as const;
  for (const [firstName, lastName, company] of people) {
    const res = await app.inject({ method: 'POST', url: '/contacts', headers: { authorization: me.authorization }, payload: { firstName, lastName, company, tags: ['x'] } });
    t.equal(res.statusCode, 201);
  }
  const names = async (query: string) => (await list(me.authorization, query)).contacts.map((c) => c.firstName);
  t.same(await names(''), ['Bruno', 'ana', 'Carmen'], 'default: newest first');
  t.same(await names('sort=createdAt&order=asc'), ['Carmen', 'ana', 'Bruno']);
  t.same(await names('sort=name'), ['ana', 'Bruno', 'Carmen'], 'name ascending by default, case ignored');
  t.same(await names('sort=name&order=desc'), ['Carmen', 'Bruno', 'ana']);
  t.same(await names('sort=company'), ['Bruno', 'Carmen', 'ana'], 'no company last');
  t.same(await names('sort=company&order=desc'), ['ana', 'Carmen', 'Bruno']);
  t.same(await names('tag=x&sort=name&order=desc'), ['Carmen', 'Bruno', 'ana'], 'a filtered list sorts the same way');

  const bad = await app.inject({ url: '/contacts?sort=email', headers: { authorization: me.authorization } });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().message, /sort/);
});

t.test('every search path: short terms by word start, long ones anywhere, accents and case folded', async (t) => {
  const me = signToken(app);
  const people = [
    ['Ñoño', 'Zúñiga', 'nono@gmail.com', '+34 611 22 33 44', 'Óptica Ébano'],
    ['julia', "O'Brien", 'j.obrien@empresa.es', '(612) 000-111', null],
    ['Pedro', 'Ruiz', 'pedro@Correo.ES', null, 'Ruiz & Hijos'],
  ] as const;
  for (const [firstName, lastName, email, phone, company] of people) {
    const res = await app.inject({ method: 'POST', url: '/contacts', headers: { authorization: me.authorization }, payload: { firstName, lastName, email, phone, company } });
    t.equal(res.statusCode, 201);
  }
  const found = async (term: string) => (await list(me.authorization, `search=${encodeURIComponent(term)}`)).contacts.map((c) => c.firstName).sort();

  // One or two letters: the start of any word, a mail's parts included.
  t.same(await found('ñ'), ['Ñoño'], 'a one-letter term, accent folded');
  t.same(await found('ZU'), ['Ñoño'], 'case folded');
  t.same(await found('gm'), ['Ñoño'], 'a word after the @');
  t.same(await found('ob'), ['julia'], "after a dot, and after O'");
  t.same(await found('hi'), ['Pedro'], 'after "& "');
  t.same(await found('61'), ['Ñoño', 'julia'].sort(), 'digits at the start of a phone group');
  t.same(await found('ul'), [], 'not the middle of a word');
  t.same(await found('zq'), [], 'nothing');
  t.same(await found('@'), ['Ñoño', 'julia', 'Pedro'].sort(), 'a short term of other characters is a substring');

  // Three characters and more: anywhere, folded.
  t.same(await found('ÚÑIG'), ['Ñoño']);
  t.same(await found('ebano'), ['Ñoño']);
  t.same(await found('@correo.es'), ['Pedro'], 'an email fragment');
  t.same(await found('mail.co'), ['Ñoño']);
  t.same(await found('iz & h'), ['Pedro']);

  // Phones by their digits, whatever the formatting typed or stored.
  t.same(await found('611223344'), ['Ñoño']);
  t.same(await found('+34 611-22-33-44'), ['Ñoño']);
  t.same(await found('34611'), ['Ñoño']);
  t.same(await found('612 000 111'), ['julia']);
  t.same(await found('(612)000'), ['julia']);
  t.same(await found('999 99'), []);
  t.same(await found('3344'), ['Ñoño'], 'the end of a number');
});

t.test('a term with a number is found whole, through the number, wherever it sits', async (t) => {
  const me = signToken(app);
  const rows = [
    ['Pedido', 'Ref4242', 'ref4242@x.es'],
    ['Pedido', 'Otro', 'otro-ref4242b@x.es'],
    ['Pedido', 'Casi', 'casi4242@x.es'],
    ['Pedido', 'Ñu', 'ñ4242@x.es'],
  ];
  for (const [firstName, lastName, email] of rows) {
    const res = await app.inject({ method: 'POST', url: '/contacts', headers: { authorization: me.authorization }, payload: { firstName, lastName, email } });
    t.equal(res.statusCode, 201);
  }
  const found = async (term: string) => (await list(me.authorization, `search=${encodeURIComponent(term)}`)).contacts.map((c) => c.lastName).sort();
  t.same(await found('REF4242'), ['Otro', 'Ref4242'].sort());
  t.same(await found('ref4242b'), ['Otro'], 'a number in the middle');
  t.same(await found('f4242@'), ['Ref4242'], 'a number followed by more');
  t.same(await found('Ñ4242'), ['Ñu'], 'accent folded in the part the index reads');
  t.same(await found('xref4242'), []);
  t.same(await found('pedido'), ['Casi', 'Otro', 'Ref4242', 'Ñu'].sort());
});

t.test('a total counted once is reused until any write to the user\'s contacts, by this process or another', async (t) => {
  const me = signToken(app);
  const other = signToken(app);
  const authorization = me.authorization;
  const add = async (who: typeof me, firstName: string) => {
    const res = await app.inject({ method: 'POST', url: '/contacts', headers: { authorization: who.authorization }, payload: { firstName, lastName: 'Vigente' } });
    t.equal(res.statusCode, 201);
    return res.json<{ id: string }>().id;
  };
  const first = await add(me, 'Quintín');
  t.equal((await list(authorization, 'search=quintin')).total, 1);
  t.equal((await list(authorization, 'search=quintin&sort=name')).total, 1, 'the same filter in another order');
  const counted = await sql<{ version: string }[]>`select version from contacts.owner_counts where user_id = ${me.userId}`;

  await add(me, 'Quintina');
  t.equal((await list(authorization, 'search=quintin')).total, 2, 'a contact created through the API');
  await add(other, 'Quintín');
  t.equal((await list(authorization, 'search=quintin')).total, 2, 'another user\'s contact is not counted');

  // As another replica of the service would: straight into the database, so this process's memory knows nothing.
  await sql`insert into contacts.contacts (user_id, first_name, last_name) values (${me.userId}, 'Quintinito', 'Directo')`;
  t.equal((await list(authorization, 'search=quintin')).total, 3, 'a row written by another process');
  await sql`update contacts.contacts set first_name = 'Marta' where id = ${first}`;
  const renamed = await list(authorization, 'search=quintin');
  t.equal(renamed.total, 2, 'a row renamed out of the search by another process');
  t.notOk(renamed.contacts.some((c) => c.id === first));
  await sql`delete from contacts.contacts where user_id = ${me.userId} and first_name = 'Quintinito'`;
  t.equal((await list(authorization, 'search=quintin')).total, 1, 'a row deleted by another process');

  const [now] = await sql<{ version: string }[]>`select version from contacts.owner_counts where user_id = ${me.userId}`;
  t.ok(BigInt(now!.version) >= BigInt(counted[0]!.version) + 4n, 'every writing statement moved the version');
  const untouched = await sql`update contacts.contacts set first_name = 'Nadie' where user_id = ${me.userId} and first_name = 'No existe' returning id`;
  t.equal(untouched.length, 0);
  const [same] = await sql<{ version: string }[]>`select version from contacts.owner_counts where user_id = ${me.userId}`;
  t.equal(same!.version, now!.version, 'a statement that changed nothing keeps the counted totals');
});

t.test('while the version holds the remembered total is answered without counting again, under the cap or past it', async (t) => {
  const me = signToken(app);
  await sql`insert into contacts.contacts (user_id, first_name, last_name) values (${me.userId}, 'Rigoberto', 'Uno'), (${me.userId}, 'Rigoberta', 'Dos')`;
  const totals = new SearchTotals();
  const repository = new ContactsRepository(sql, totals);
  const key = SearchTotals.key(me.userId, 'rigobert', undefined);
  const page = () => repository.page(me.userId, { search: ' rigobert ' }, DEFAULT_ORDER, 10, 0);
  t.equal((await page()).total, 2);
  const [first] = await sql<{ version: string }[]>`select version from contacts.owner_counts where user_id = ${me.userId}`;
  t.same(totals.get(key), { version: first!.version, matched: 2 }, 'counted at the current version');
  // A total that could only come from the memory: proof the count was not run again.
  totals.set(key, { version: first!.version, matched: 77 });
  const rare = await page();
  t.equal(rare.total, 77, 'the remembered total');
  t.same(rare.rows.map((r) => r.lastName).sort(), ['Dos', 'Uno'], 'the page itself is read, from the matches');

  await sql`insert into contacts.contacts (user_id, first_name, last_name)
    select ${me.userId}, 'Rigoberto', 'Denso ' || i from generate_series(1, ${CONTACTS_TOTAL_CAP}) i`;
  const dense = await page();
  t.same([dense.total, dense.totalCapped], [CONTACTS_TOTAL_CAP, true], 'past the cap');
  const [owner] = await sql<{ version: string }[]>`select version from contacts.owner_counts where user_id = ${me.userId}`;
  t.same(totals.get(key), { version: owner!.version, matched: CONTACTS_TOTAL_CAP + 1 }, 'a total past the cap is kept, at the current version');

  // Remembered past the cap, though only two match now: the page walks the order's index.
  await sql`delete from contacts.contacts where user_id = ${me.userId} and last_name like 'Denso %'`;
  const [after] = await sql<{ version: string }[]>`select version from contacts.owner_counts where user_id = ${me.userId}`;
  totals.set(key, { version: after!.version, matched: CONTACTS_TOTAL_CAP + 1 });
  const reused = await page();
  t.same([reused.total, reused.totalCapped], [CONTACTS_TOTAL_CAP, true], 'the remembered total');
  t.same(reused.rows.map((r) => r.lastName).sort(), ['Dos', 'Uno'], 'the page itself is read, walking the index');
  await sql`insert into contacts.contacts (user_id, first_name, last_name) values (${me.userId}, 'Rigoberto', 'Tres')`;
  t.equal((await page()).total, 3, 'a new version: counted again');
});

t.test('the remembered totals are bounded, least recently used forgotten first', async (t) => {
  const totals = new SearchTotals(2);
  totals.set('a', { version: '1', matched: 1 });
  totals.set('b', { version: '1', matched: 2 });
  t.ok(totals.get('a'));
  totals.set('c', { version: '1', matched: 3 });
  t.equal(totals.get('b'), undefined, 'b was the least recently used');
  t.ok(totals.get('a'));
  t.ok(totals.get('c'));
});

t.test('a search term written into the SQL text reads back exactly as typed, whatever it holds', async (t) => {
  const tricky = ["O'Brien", 'C:\\datos\\', "\\'; drop table contacts.contacts; --", "''", '\\x41\\n', '$$ $q$', 'ñandú 😀', '%_'];
  for (const conforming of ['on', 'off']) {
    await sql.begin(async (tx) => {
      await tx.unsafe(`set local standard_conforming_strings = ${conforming}`);
      for (const value of tricky) {
        const [row] = await tx.unsafe<{ v: string }[]>(`select ${sqlLiteral(value)} as v`);
        t.equal(row!.v, value, `${JSON.stringify(value)} with standard_conforming_strings ${conforming}`);
      }
    });
  }
  t.throws(() => sqlLiteral('a\0b'), /NUL/);

  const me = signToken(app);
  const authorization = me.authorization;
  for (const lastName of ["O'Brien", 'C:\\datos', '100% real']) {
    const res = await app.inject({ method: 'POST', url: '/contacts', headers: { authorization }, payload: { firstName: 'Literal', lastName } });
    t.equal(res.statusCode, 201);
  }
  const names = async (search: string) => (await list(authorization, `search=${encodeURIComponent(search)}`)).contacts.map((c) => c.lastName);
  t.same(await names("o'brien"), ["O'Brien"]);
  t.same(await names('c:\\datos'), ['C:\\datos']);
  t.same(await names('0% r'), ['100% real'], 'a % typed is a character');
  t.same(await names("'; drop table contacts.contacts; --"), []);
  t.same(await names("o'"), ["O'Brien"], 'a short term with a quote (a substring)');
  t.equal((await list(authorization, 'search=literal&tag=' + encodeURIComponent("vip'"))).total, 0, 'a tag with a quote');
  t.equal((await list(authorization, 'search=literal')).total, 3, 'and the table is still there');
});
