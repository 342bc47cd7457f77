import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);
const sql = platform.db.sql;

interface ContactJson {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

function api(authorization: string) {
  return {
    post: (url: string, payload: object) => app.inject({ method: 'POST', url, headers: { authorization }, payload }),
    get: (url: string) => app.inject({ url, headers: { authorization } }),
  };
}

async function seed(authorization: string, count: number): Promise<ContactJson[]> {
  const created: ContactJson[] = [];
  for (let i = 0; i < count; i++) {
    const res = await api(authorization).post('/contacts', { firstName: `N${i}`, lastName: 'Bulk', email: `n${i}@bulk.es`, tags: i % 2 ? ['Vip'] : ['lead'] });
    created.push(res.json() as ContactJson);
  }
  return created;
}

async function all(authorization: string): Promise<ContactJson[]> {
  return ((await api(authorization).get('/contacts?limit=100')).json() as { contacts: ContactJson[] }).contacts;
}

async function outboxCount(userId: string): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select count(*) as n from contacts.outbox where user_id = ${userId}`;
  return Number(row!.n);
}

t.test('add and remove tags on picked contacts or on every match, case-insensitively', async (t) => {
  const me = signToken(app);
  const people = await seed(me.authorization, 6);
  const picked = people.slice(0, 3).map((p) => p.id);
  const added = await api(me.authorization).post('/contacts/bulk/tags', { selection: { ids: picked }, add: ['cliente', 'VIP'] });
  t.same(added.json(), { count: 3 });
  const byId = new Map((await all(me.authorization)).map((c) => [c.id, c.tags]));
  t.same(byId.get(people[0]!.id), ['lead', 'cliente', 'VIP']);
  t.same(byId.get(people[1]!.id), ['Vip', 'cliente'], 'an existing tag in another case is not added twice');
  t.same(byId.get(people[3]!.id), ['Vip'], 'others untouched');

  const removed = await api(me.authorization).post('/contacts/bulk/tags', { selection: { filter: { tag: 'cliente' } }, remove: ['vip', 'CLIENTE'] });
  t.same(removed.json(), { count: 3 });
  t.same(new Map((await all(me.authorization)).map((c) => [c.id, c.tags])).get(people[1]!.id), []);
  const again = await api(me.authorization).post('/contacts/bulk/tags', { selection: { ids: picked }, remove: ['cliente'] });
  t.same(again.json(), { count: 0 }, 'unchanged contacts are not rewritten');
});

t.test('bulk delete, then Deshacer brings the rows back exactly, ids included', async (t) => {
  const me = signToken(app);
  await seed(me.authorization, 5);
  const before = await all(me.authorization);
  const deleted = await api(me.authorization).post('/contacts/bulk/delete', { selection: { filter: { search: 'bulk' } } });
  t.equal(deleted.statusCode, 200);
  const { deleted: count, undoToken } = deleted.json() as { deleted: number; undoToken: string };
  t.equal(count, 5);
  t.same(await all(me.authorization), []);
  t.equal(((await api(me.authorization).get('/contacts/stats')).json() as { total: number }).total, 0);

  const other = signToken(app);
  t.equal((await api(other.authorization).post('/contacts/bulk/restore', { undoToken })).statusCode, 404, "another user cannot undo someone's delete");

  const restored = await api(me.authorization).post('/contacts/bulk/restore', { undoToken });
  t.same(restored.json(), { count: 5 });
  const sortById = (list: ContactJson[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
  t.same(sortById(await all(me.authorization)), sortById(before), 'same ids, fields, tags and dates');
  t.equal((await api(me.authorization).post('/contacts/bulk/restore', { undoToken })).statusCode, 404, 'an undo works once');
});

t.test("another user's ids: 404 and nothing written; bad bodies: 400 in Spanish", async (t) => {
  const me = signToken(app);
  const other = signToken(app);
  const mine = await seed(me.authorization, 2);
  const theirs = await seed(other.authorization, 1);
  const events = await outboxCount(me.userId);
  const ids = [mine[0]!.id, theirs[0]!.id];
  for (const [url, body] of [
    ['/contacts/bulk/tags', { selection: { ids }, add: ['x'] }],
    ['/contacts/bulk/delete', { selection: { ids } }],
    ['/contacts/export', { selection: { ids } }],
  ] as const) {
    const res = await api(me.authorization).post(url, body);
    t.equal(res.statusCode, 404, url);
    t.match(res.json().message, /no existe/);
  }
  t.same((await all(me.authorization)).map((c) => c.tags).sort(), [['Vip'], ['lead']]);
  t.equal((await all(other.authorization)).length, 1);
  t.equal(await outboxCount(me.userId), events, 'no event either');

  const bad: [object, RegExp][] = [
    [{ selection: {}, add: ['x'] }, /ids o un filtro/],
    [{ selection: { ids: [mine[0]!.id], filter: {} }, add: ['x'] }, /no con ambos/],
    [{ selection: { ids: ['no-uuid'] }, add: ['x'] }, /Identificador inválido/],
    [{ selection: { ids: [mine[0]!.id] } }, /al menos una etiqueta/],
    [{ selection: { ids: [mine[0]!.id] }, add: ['x'.repeat(51)] }, /50/],
  ];
  for (const [body, message] of bad) {
    const res = await api(me.authorization).post('/contacts/bulk/tags', body);
    t.equal(res.statusCode, 400, JSON.stringify(body));
    t.match(res.json().message, message);
  }
  t.equal(await outboxCount(me.userId), events);
});

t.test('export of the picked contacts', async (t) => {
  const me = signToken(app);
  const people = await seed(me.authorization, 4);
  const res = await api(me.authorization).post('/contacts/export', { selection: { ids: [people[1]!.id, people[3]!.id] } });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /text\/csv/);
  const lines = res.body.trim().split('\r\n');
  t.equal(lines.length, 3);
  t.same(lines.slice(1).map((l) => l.split(',')[0]).sort(), ['N1', 'N3']);
});
