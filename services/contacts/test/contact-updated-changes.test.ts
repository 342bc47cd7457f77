import t from 'tap';
import { EventValidator } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

/** `contacts.contact.updated` names the fields a write changed, from every producer; the values travel apart, never the notes. */
const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);
const sql = platform.db.sql;
const validator = new EventValidator();

async function updates(userId: string, contactId: string): Promise<unknown[]> {
  const rows = await sql<{ id: string; type: string; userId: string; occurredAt: Date; data: Record<string, unknown> }[]>`
    select id, type, user_id, occurred_at, data from contacts.outbox
    where user_id = ${userId} and type = 'contacts.contact.updated' and data->>'contactId' = ${contactId} order by seq`;
  return rows.map((row) => {
    const checked = validator.validate({ id: row.id, type: row.type, userId: row.userId, occurredAt: row.occurredAt.toISOString(), data: row.data });
    t.ok(checked.ok, 'the event is valid against the catalogue');
    return row.data.changed;
  });
}

t.test('a PUT, a bulk tag change and a merge each say what changed', async (t) => {
  const me = signToken(app);
  const send = (method: 'POST' | 'PUT', url: string, payload: object) => app.inject({ method, url, headers: { authorization: me.authorization }, payload });
  const ana = (await send('POST', '/contacts', { firstName: 'Ana', lastName: 'Ruiz', email: 'ana@x.es', tags: ['cliente'] })).json<{ id: string }>();

  t.equal((await send('PUT', `/contacts/${ana.id}`, { firstName: 'Anabel', lastName: 'Ruiz', email: 'anabel@x.es', tags: ['cliente', 'vip'] })).statusCode, 200);
  t.equal((await send('PUT', `/contacts/${ana.id}`, { firstName: 'Anabel', lastName: 'Ruiz', email: 'anabel@x.es', tags: ['cliente', 'vip'] })).statusCode, 200);
  t.equal((await send('POST', '/contacts/bulk/tags', { selection: { ids: [ana.id] }, add: ['proveedor'] })).statusCode, 200);
  const dup = (await send('POST', '/contacts', { firstName: 'Anabel', lastName: 'Ruiz', company: 'Panadería Sol' })).json<{ id: string }>();
  t.equal((await send('POST', `/contacts/${ana.id}/merge`, { ids: [dup.id] })).statusCode, 200);

  t.same(await updates(me.userId, ana.id), [['firstName', 'email', 'tags'], [], ['tags'], ['company']], 'names only, in a fixed order; nothing for a write that changed nothing');
  const data = await sql<{ data: { changed: string[]; contact: Record<string, unknown> } }[]>`
    select data from contacts.outbox where user_id = ${me.userId} and type = 'contacts.contact.updated' order by seq`;
  t.notMatch(JSON.stringify(data.map((row) => row.data.changed)), /anabel@x\.es|Panadería/, 'no value in `changed`');
  t.match(data.at(-1)?.data.contact, { firstName: 'Anabel', email: 'anabel@x.es', company: 'Panadería Sol', tags: ['cliente', 'vip', 'proveedor'] }, 'the contact as it is now, for the webhooks');
  t.notMatch(JSON.stringify(data), /notes|Fusionado/, 'never the notes');
});
