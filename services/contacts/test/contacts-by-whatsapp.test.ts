import t from 'tap';
import type { ContactMatches } from '@asistente/contracts';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

/** GET /contacts/by-whatsapp: the contact of a chat's phone, matched exactly, never by a fuzzy search. */
const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);

t.test('exact phone match; other people, substrings and other users never match', async (t) => {
  const { authorization } = signToken(app);
  const other = signToken(app);
  const post = (auth: string, payload: object) => app.inject({ method: 'POST', url: '/contacts', headers: { authorization: auth }, payload });
  await post(authorization, { firstName: 'Ana', lastName: 'García', phone: '+34 611 000 001' });
  await post(authorization, { firstName: 'Ana', lastName: 'Larga', phone: '+34 611 000 0011' });
  await post(authorization, { firstName: 'Bruno', lastName: 'Ortega', phone: '5215512345678' });
  await post(authorization, { firstName: 'Eva', lastName: 'Mora', phone: '+52 55 1234 5679' });
  await post(other.authorization, { firstName: 'Ajena', lastName: 'Otra', phone: '+34 611 000 002' });
  const match = async (jid: string, auth = authorization) => {
    const answer = await app.inject({ method: 'GET', url: '/contacts/by-whatsapp', headers: { authorization: auth }, query: { jid } });
    return { status: answer.statusCode, names: answer.statusCode === 200 ? answer.json<ContactMatches>().contacts.map((c) => c.firstName) : answer.json<{ message: string }>().message };
  };
  t.same(await match('34611000001@s.whatsapp.net'), { status: 200, names: ['Ana'] }, 'by E.164, not the longer number');
  t.same(await match('34611000001:12@s.whatsapp.net'), { status: 200, names: ['Ana'] }, 'a device suffix is the same person');
  t.same(await match('5215512345678@s.whatsapp.net'), { status: 200, names: ['Bruno'] }, 'a phone stored as digits only');
  t.same(await match('5215512345679@s.whatsapp.net'), { status: 200, names: ['Eva'] }, "México's 52 1 form finds the +52 number");
  t.same(await match('3461100000@s.whatsapp.net'), { status: 200, names: [] }, 'a prefix finds nobody');
  t.same(await match('34611000002@s.whatsapp.net'), { status: 200, names: [] }, "another user's contact is not found");
  for (const jid of ['%@s.whatsapp.net', '*', '', '34611000001@lid', `${'1'.repeat(30)}@s.whatsapp.net`]) {
    t.same(await match(jid), { status: 400, names: 'Identificador de chat de WhatsApp inválido' }, `refused: ${jid.slice(0, 20)}`);
  }
});

t.test('GET /contacts/by-handle: the inbox finds a customer by the handle of their number, with the same exactness', async (t) => {
  const { authorization } = signToken(app);
  const post = (payload: object) => app.inject({ method: 'POST', url: '/contacts', headers: { authorization }, payload });
  await post({ firstName: 'Ana', lastName: 'García', phone: '+34 611 000 001' });
  await post({ firstName: 'Bruno', lastName: 'Ortega', phone: '5215512345678' });
  await post({ firstName: 'Dora', lastName: 'Paz', phone: '+54 9 11 2345 6789' });
  const match = async (handle: string) => {
    const answer = await app.inject({ method: 'GET', url: '/contacts/by-handle', headers: { authorization }, query: { handle } });
    return answer.statusCode === 200 ? answer.json<ContactMatches>().contacts.map((c) => c.firstName) : answer.json<{ message: string }>().message;
  };
  t.same(await match('+34611000001'), ['Ana']);
  t.same(await match('+525512345678'), ['Bruno'], "the dialled +52 form finds WhatsApp's 52 1 spelling");
  t.same(await match('+541123456789'), ['Dora'], 'and +54 the 54 9 one');
  t.same(await match('+3461100000'), [], 'a prefix finds nobody');
  for (const handle of ['34611000001', 'group:1203', '+34 611', '']) t.same(await match(handle), 'Identificador de contacto inválido', `refused: ${handle}`);
});
