// A signed Cloud API message answered by the assistant through the whole one-process app (gateway, whatsapp, inbox, ai): the answer reaches the customer through Meta's messages endpoint, from a run bound to that customer.
import t from 'tap';
import { DEFAULT_ASSISTANT_CONFIG } from '@asistente/contracts';
import { createTestPlatform, waitUntil } from '@asistente/kit/testing';
import { OpenAiPeer, type RecordedRequest } from '../../services/ai/test/fixtures/openai-peer.js';
import { CloudApiPeer, injectInto, PEER_NUMBER } from '../../services/whatsapp/test/cloud-api-peer.js';
import { buildGateway } from '../src/gateway.js';

const APP_SECRET = 'gateway-cloud-app-secret-0123456789';
const CUSTOMER = '34633445566';
const QUESTION = '¿Tenéis tornillos de 8 mm?';
const ANSWER = 'Hola Lucía, sí: tenemos tornillos de 8 mm en la tienda.';

const openai = await OpenAiPeer.start();
t.teardown(() => openai.close());
const meta = await CloudApiPeer.start({ appSecret: APP_SECRET });
t.teardown(() => meta.close());
const platform = await createTestPlatform(t, {
  config: { OPENAI_BASE_URL: openai.url, WHATSAPP_CLOUD_API_URL: meta.url, WHATSAPP_CLOUD_APP_SECRET: APP_SECRET, WHATSAPP_CLOUD_VERIFY_TOKEN: 'verificar' },
});
const gateway = await buildGateway(platform, 'embedded');
await gateway.ready();
t.teardown(() => gateway.close());
meta.postTo(injectInto(gateway));

const until = <T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string) => waitUntil(check, what, 30_000, 25);

t.test('a customer writes to the Cloud number; the assistant answers them through Meta, with tools bound to them', async (t) => {
  const registered = await gateway.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { firstName: 'Marta', lastName: 'Norte', email: `cloud.${Date.now()}@ejemplo.es`, password: 'clave-larga-1' },
  });
  t.equal(registered.statusCode, 201, 'the owner registered');
  const { token, user } = registered.json<{ token: string; user: { id: string } }>();
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await gateway.inject({ method, url: `/api${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };

  const connected = await call('POST', '/whatsapp/cloud/connect', { phoneNumberId: PEER_NUMBER.phoneNumberId, businessAccountId: PEER_NUMBER.businessAccountId, accessToken: PEER_NUMBER.token });
  t.match(connected, { status: 200, body: { provider: 'cloud', name: PEER_NUMBER.verifiedName, qualityRating: 'GREEN' } });
  t.equal((await call('PUT', '/ai/provider/openai/key', { apiKey: 'sk-proj-GatewayCloudKey0123456789abcdWXYZ' })).status, 200);
  const assistant = await call('PUT', '/ai/assistant', { ...DEFAULT_ASSISTANT_CONFIG, autoReply: true, internalSources: ['contacts', 'whatsapp'] });
  t.equal(assistant.status, 200, 'automatic answers on');
  // The owner's contact for this customer (typed with spaces): the customer's tools find it by the handle.
  t.equal((await call('POST', '/contacts', { firstName: 'Lucía', lastName: 'Pérez', phone: '+34 633 44 55 66', notes: 'Nota privada' })).status, 201);
  // Another customer the run must not reach.
  t.equal((await call('POST', '/contacts', { firstName: 'Bruno', lastName: 'Ortega', phone: '+34 622 00 00 00' })).status, 201);

  let offered: string[] = [];
  openai.reply(
    {
      respond: (body: RecordedRequest['body']) => {
        offered = (body.tools ?? []).map((tool) => tool.function.name);
        return { toolCalls: [{ name: 'leer_ficha_del_cliente', arguments: {} }] };
      },
    },
    { text: ANSWER },
  );
  const started = Date.now();
  const written = await meta.customerWrites({ from: CUSTOMER, name: 'Lucía', text: QUESTION });
  t.equal(written.status, 200, 'the signed webhook accepted');

  const answer = await until(() => meta.received(CUSTOMER).find((d) => d.text === ANSWER), "the assistant's answer at the customer");
  // Most of it is the assistant's quiet window (4 s: a customer's lines that follow each other get one answer).
  t.comment(`cloud-assistant: webhook to the answer at the customer in ${Date.now() - started} ms`);
  t.match(answer, { type: 'text', phoneNumberId: PEER_NUMBER.phoneNumberId }, 'through the Cloud API messages endpoint of the number');
  t.equal(meta.received(CUSTOMER).length, 1, 'answered once');

  t.equal(openai.requests.length, 2, 'one run: the tool call, then the answer');
  const [first, second] = openai.requests;
  t.match(JSON.stringify(first!.body.messages), QUESTION, "the customer's text reached the model");
  t.ok(offered.includes('leer_ficha_del_cliente'), 'the customer-bound tools offered');
  t.notOk(offered.includes('buscar_contactos'), "and none of the owner's");
  const toolResult = second!.body.messages.find((m) => m.role === 'tool')?.content ?? '';
  t.match(toolResult, 'Lucía', "the customer's own record, found by their handle");
  t.notMatch(toolResult, 'Bruno', 'nobody else');
  t.notMatch(toolResult, 'Nota privada', 'without the team notes');

  const sql = platform.db.sql;
  const runs = await sql<{ chatId: string; replied: boolean }[]>`select chat_id, replied from ai.runs where user_id = ${user.id}`;
  t.same(runs, [{ chatId: `whatsapp:+${CUSTOMER}`, replied: true }], "the run was for this customer's handle");
  await until(async () => (await sql<{ status: string }[]>`select status from whatsapp.messages where wa_id = ${answer.id}`)[0]?.status === 'sent', 'the answer stored as sent');
  const [stored] = await sql<{ origin: string }[]>`select origin from whatsapp.messages where wa_id = ${answer.id}`;
  t.equal(stored?.origin, 'ai', 'an automatic answer');
});
