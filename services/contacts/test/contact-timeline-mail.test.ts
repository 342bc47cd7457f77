import { randomUUID } from 'node:crypto';
import t from 'tap';
import type { EmailList } from '@asistente/contracts';
import type { ServicePlugin } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

/** A stand-in mail service answering GET /emails?address=&folder= as the email service does (whole address, one folder, its EmailList). */
const asked: { address: string; folder: string }[] = [];
const fakeEmail: ServicePlugin = async (app) => {
  app.get('/emails', async (request) => {
    const { address = '', folder = 'inbox' } = request.query as { address?: string; folder?: string };
    asked.push({ address, folder });
    const page = (data: EmailList['data']): EmailList => ({ data, pagination: { total: data.length, page: 1, limit: 30 }, unread: 0 });
    if (address !== 'lucia@cliente.example') return page([]);
    const flags = { isRead: true, hasAttachments: false };
    return page(
      folder === 'sent'
        ? [{ ...flags, id: randomUUID(), from: 'yo@panaderia.example', to: 'lucia@cliente.example', subject: 'Re: Encargo de tarta', preview: 'Lista el sábado', createdAt: '2026-11-21T09:00:00.000Z' }]
        : [{ ...flags, id: randomUUID(), from: 'Lucía <lucia@cliente.example>', to: 'yo@panaderia.example', subject: 'Encargo de tarta', preview: '¿Para el sábado?', createdAt: '2026-11-20T18:00:00.000Z' }],
    );
  });
};

const platform = await createTestPlatform(t);
const app = await buildServicesApp(t, [contactsService, fakeEmail], platform);

t.test("a contact's Actividad shows the mail they sent and the owner's reply", async (t) => {
  const me = signToken(app);
  const created = await app.inject({ method: 'POST', url: '/api/contacts', headers: { authorization: me.authorization }, payload: { firstName: 'Lucía', lastName: 'Mora', email: 'lucia@cliente.example' } });
  const { id } = created.json<{ id: string }>();
  const res = await app.inject({ url: `/api/contacts/${id}/timeline`, headers: { authorization: me.authorization } });
  t.equal(res.statusCode, 200, res.body);
  const mail = res.json<{ sections: { channel: string; items: { id: string; title: string; direction: string }[] }[] }>().sections.find((s) => s.channel === 'email');
  t.same(
    mail?.items.map((i) => [i.title, i.direction]),
    [
      ['Re: Encargo de tarta', 'outgoing'],
      ['Encargo de tarta', 'incoming'],
    ],
    'newest first, the reply marked as the owner’s',
  );
  t.same(
    asked.map((a) => a.folder).sort(),
    ['inbox', 'sent'],
    'both folders asked by the whole address',
  );
});
