import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

t.test('contacts CRUD through the plugin', async (t) => {
  const platform = await createTestPlatform(t);
  const app = await buildServiceApp(t, contactsService, platform);
  const { authorization } = signToken(app);
  const created = await app.inject({
    method: 'POST',
    url: '/contacts',
    headers: { authorization },
    payload: { firstName: 'José', lastName: 'Pérez', email: 'jose@acme.es', tags: ['vip'] },
  });
  t.equal(created.statusCode, 201);
  const list = await app.inject({ url: '/contacts?search=PEREZ', headers: { authorization } });
  t.equal(list.json().total, 1);
});
