import t from 'tap';
import { CONTACTS_TOTAL_CAP } from '@asistente/contracts';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

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
