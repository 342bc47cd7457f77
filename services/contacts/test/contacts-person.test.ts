import t from 'tap';
import type { MessageList } from '@asistente/contracts';
import type { ServicePlugin } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

/** A stand-in WhatsApp service answering GET /whatsapp/messages?phoneNumber= in its contract's shape (MessageList). */
let whatsappAsked = 0;
const fakeWhatsapp: ServicePlugin = async (app) => {
  app.get('/whatsapp/messages', async (request) => {
    whatsappAsked++;
    const { phoneNumber } = request.query as { phoneNumber?: string };
    if (phoneNumber !== '+34611223344') return { data: [], pagination: { total: 0, page: 1, limit: 30 } };
    const chat = { chatId: '34611223344@s.whatsapp.net', media: null };
    const data: MessageList['data'] = [
      { ...chat, id: 'm1', from: '34611223344@s.whatsapp.net', to: 'me', message: 'Hola, ¿tenéis cita el martes?', timestamp: '2026-11-20T10:00:00.000Z', type: 'incoming', status: 'received', origin: 'contact', seq: 1 },
      { ...chat, id: 'm2', from: 'me', to: '34611223344@s.whatsapp.net', message: 'Sí, a las 10', timestamp: '2026-11-20T10:05:00.000Z', type: 'outgoing', status: 'sent', origin: 'phone', seq: 2 },
    ];
    return { data, pagination: { total: 2, page: 1, limit: 30 } };
  });
};

/** A mail service that is down. */
const brokenEmail: ServicePlugin = async (app) => {
  app.get('/emails', async (_request, reply) => reply.code(500).send({ message: 'caído' }));
};

const platform = await createTestPlatform(t);
const app = await buildServicesApp(t, [contactsService, fakeWhatsapp, brokenEmail], platform);

interface ContactJson {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  phoneE164: string | null;
  notes: string | null;
  tags: string[];
}

function api(authorization: string) {
  return {
    get: (url: string) => app.inject({ url: `/api${url}`, headers: { authorization } }),
    post: (url: string, payload: object) => app.inject({ method: 'POST', url: `/api${url}`, headers: { authorization }, payload }),
    put: (url: string, payload: object) => app.inject({ method: 'PUT', url: `/api${url}`, headers: { authorization }, payload }),
  };
}

async function create(authorization: string, body: object): Promise<ContactJson> {
  const res = await api(authorization).post('/contacts', body);
  t.equal(res.statusCode, 201);
  return res.json() as ContactJson;
}

t.test('phones are kept as typed and matched in E.164; notes survive a PUT that leaves them out', async (t) => {
  const me = signToken(app);
  const ana = await create(me.authorization, { firstName: 'Ana', lastName: 'Ruiz', phone: '611 22 33 44', notes: 'Prefiere WhatsApp' });
  t.match(ana, { phone: '611 22 33 44', phoneE164: '+34611223344', notes: 'Prefiere WhatsApp' });
  const edited = await api(me.authorization).put(`/contacts/${ana.id}`, { firstName: 'Ana', lastName: 'Ruiz Gil', phone: '+44 20 7946 0958' });
  t.match(edited.json(), { lastName: 'Ruiz Gil', phoneE164: '+442079460958', notes: 'Prefiere WhatsApp' });
  const notAPhone = await create(me.authorization, { firstName: 'B', lastName: 'C', phone: '123' });
  t.equal(notAPhone.phoneE164, null);
});

t.test('duplicates by phone whatever the formatting, merged with nothing lost, in one transaction', async (t) => {
  const me = signToken(app);
  const a = await create(me.authorization, { firstName: 'Luis', lastName: 'Sanz', phone: '611 22 33 44', tags: ['cliente'] });
  const b = await create(me.authorization, { firstName: 'Luis', lastName: 'Sanz', phone: '+34 611-22-33-44', email: 'luis@acme.es', company: 'Acme', tags: ['VIP'] });
  const c = await create(me.authorization, { firstName: 'L.', lastName: 'Sanz', phone: '0034611223344', email: 'lsanz@otra.es', tags: ['Cliente', 'proveedor'], notes: 'Llamar por la tarde' });
  await create(me.authorization, { firstName: 'Otra', lastName: 'Persona', phone: '622 00 00 00' });

  const dup = (await api(me.authorization).get('/contacts/duplicates')).json() as { groups: { key: string; contacts: ContactJson[] }[] };
  t.equal(dup.groups.length, 1);
  t.equal(dup.groups[0]!.key, '+34611223344');
  t.same(dup.groups[0]!.contacts.map((x) => x.id), [a.id, b.id, c.id]);

  const other = signToken(app);
  const theirs = await create(other.authorization, { firstName: 'X', lastName: 'Y', phone: '611223344' });
  const foreign = await api(me.authorization).post(`/contacts/${a.id}/merge`, { ids: [b.id, theirs.id] });
  t.equal(foreign.statusCode, 404, "another user's contact");
  t.equal((await api(me.authorization).get(`/contacts/${b.id}`)).statusCode, 200, 'nothing merged');
  const self = await api(me.authorization).post(`/contacts/${a.id}/merge`, { ids: [a.id] });
  t.equal(self.statusCode, 400);
  t.match(self.json().message, /consigo mismo/);
  t.equal((await api(me.authorization).post(`/contacts/${a.id}/merge`, { ids: ['x'] })).statusCode, 400);

  const merged = await api(me.authorization).post(`/contacts/${a.id}/merge`, { ids: [b.id, c.id] });
  t.equal(merged.statusCode, 200);
  const kept = merged.json() as ContactJson;
  t.match(kept, { id: a.id, firstName: 'Luis', phone: '611 22 33 44', email: 'luis@acme.es', company: 'Acme', phoneE164: '+34611223344' });
  t.same(kept.tags, ['cliente', 'VIP', 'proveedor'], 'tags unioned, case-insensitively');
  t.match(kept.notes, /Llamar por la tarde/);
  t.match(kept.notes, /Fusionado con L\. Sanz \(lsanz@otra\.es\)/, 'the second email is not lost');
  t.equal((await api(me.authorization).get(`/contacts/${b.id}`)).statusCode, 404);
  t.equal((await api(me.authorization).get(`/contacts/${c.id}`)).statusCode, 404);
  t.same((await api(me.authorization).get('/contacts/duplicates')).json(), { groups: [] });
});

t.test("the timeline gathers what the other services know; one that fails or is absent is left out", async (t) => {
  const me = signToken(app);
  const eva = await create(me.authorization, { firstName: 'Eva', lastName: 'Mora', phone: '611 22 33 44', email: 'eva@mora.es' });
  const res = await api(me.authorization).get(`/contacts/${eva.id}/timeline`);
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    sections: [
      {
        channel: 'whatsapp',
        items: [
          { channel: 'whatsapp', id: 'm2', at: '2026-11-20T10:05:00.000Z', title: 'Sí, a las 10', direction: 'outgoing' },
          { channel: 'whatsapp', id: 'm1', at: '2026-11-20T10:00:00.000Z', title: 'Hola, ¿tenéis cita el martes?', direction: 'incoming' },
        ],
      },
    ],
  }, 'mail failed (500) and calendar is not mounted: no sections for them');

  const other = signToken(app);
  t.equal((await api(other.authorization).get(`/contacts/${eva.id}/timeline`)).statusCode, 404);
});

t.test("a personal token sees only the timeline's sections its scopes cover, and the others are not even asked", async (t) => {
  const me = signToken(app);
  const eva = await create(me.authorization, { firstName: 'Eva', lastName: 'Ruiz', phone: '611 22 33 44' });
  const asked = whatsappAsked;
  const contactsOnly = signToken(app, me.userId, ['contacts:read']);
  const res = await api(contactsOnly.authorization).get(`/contacts/${eva.id}/timeline`);
  t.equal(res.statusCode, 200);
  t.same(res.json(), { sections: [] }, 'contacts:read alone: no WhatsApp, mail or calendar section');
  t.equal(whatsappAsked, asked, 'WhatsApp was not asked');
  const withChats = signToken(app, me.userId, ['contacts:read', 'whatsapp:read']);
  const sections = (await api(withChats.authorization).get(`/contacts/${eva.id}/timeline`)).json<{ sections: { channel: string }[] }>().sections;
  t.same(sections.map((s) => s.channel), ['whatsapp'], 'with whatsapp:read, its section');
  t.equal((await api(signToken(app, me.userId, ['whatsapp:read']).authorization).get(`/contacts/${eva.id}/timeline`)).statusCode, 403, 'no contacts:read: the route itself is refused');
});
