// Proves GET /contacts/by-handle finds the contact of a customer's number exactly (every spelling WhatsApp and the owner use), never by a fuzzy search.
import t from 'tap';
import type { ContactMatches } from '@asistente/contracts';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);

t.test('exact phone match in every spelling WhatsApp and the owner use; longer numbers, prefixes and other workspaces never match', async (t) => {
  const { authorization } = signToken(app);
  const other = signToken(app);
  const post = (payload: object, auth = authorization) => app.inject({ method: 'POST', url: '/contacts', headers: { authorization: auth }, payload });
  await post({ firstName: 'Ana', lastName: 'García', phone: '+34 611 000 001' });
  await post({ firstName: 'Ana', lastName: 'Larga', phone: '+34 611 000 0011' });
  await post({ firstName: 'Bruno', lastName: 'Ortega', phone: '5215512345678' });
  await post({ firstName: 'Eva', lastName: 'Mora', phone: '+52 55 1234 5679' });
  await post({ firstName: 'Dora', lastName: 'Paz', phone: '+54 9 11 2345 6789' });
  await post({ firstName: 'Ajena', lastName: 'Otra', phone: '+34 611 000 002' }, other.authorization);
  const match = async (handle: string) => {
    const answer = await app.inject({ method: 'GET', url: '/contacts/by-handle', headers: { authorization }, query: { handle } });
    return answer.statusCode === 200 ? answer.json<ContactMatches>().contacts.map((c) => c.firstName) : answer.json<{ message: string }>().message;
  };
  t.same(await match('+34611000001'), ['Ana'], 'by E.164, not the longer number');
  t.same(await match('+5215512345678'), ['Bruno'], 'a phone stored as digits only');
  t.same(await match('+5215512345679'), ['Eva'], "México's 52 1 form finds the +52 number");
  t.same(await match('+34611000002'), [], "another workspace's contact is not found");
  t.same(await match('+525512345678'), ['Bruno'], "the dialled +52 form finds WhatsApp's 52 1 spelling");
  t.same(await match('+541123456789'), ['Dora'], 'and +54 the 54 9 one');
  t.same(await match('+3461100000'), [], 'a prefix finds nobody');
  for (const handle of ['34611000001', 'group:1203', '+34 611', '']) t.same(await match(handle), 'Identificador de contacto inválido', `refused: ${handle}`);
});
