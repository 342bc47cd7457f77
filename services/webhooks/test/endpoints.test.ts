import { randomUUID } from 'node:crypto';
import t from 'tap';
import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_URL_RULE } from '@asistente/contracts';
import { createEvent, HostGuard } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import webhooksService, { HttpSender } from '../src/app.js';

const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const app = await buildServiceApp(t, webhooksService, platform);

const call = (authorization: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, headers: { authorization }, ...(payload === undefined ? {} : { payload: payload as object }) });

t.test('create answers the secret once; list, patch and delete never show it', async (t) => {
  const me = signToken(app);
  const created = await call(me.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['contact.created', 'email.sent'], description: ' CRM ' });
  t.equal(created.statusCode, 201);
  const body = created.json();
  t.match(body.secret, /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);
  t.ok(Buffer.from(body.secret.slice(6), 'base64').length >= 24, 'at least 24 random bytes');
  t.same(body.events, ['contact.created', 'email.sent']);
  t.equal(body.description, 'CRM');
  t.equal(body.enabled, true);

  const [stored] = await platform.db.sql<{ secretEnc: string }[]>`select secret_enc from webhooks.endpoints where id = ${body.id}`;
  t.notOk(stored!.secretEnc.includes(body.secret.slice(6)), 'the secret is sealed at rest');
  t.match(stored!.secretEnc, /^v1:/);

  const list = (await call(me.authorization, 'GET', '/webhooks')).json();
  t.equal(list.max, WEBHOOK_ENDPOINTS_MAX);
  t.equal(list.endpoints.length, 1);
  t.notOk('secret' in list.endpoints[0], 'no secret in the list');

  const off = await call(me.authorization, 'PATCH', `/webhooks/${body.id}`, { enabled: false, events: ['contact.deleted'] });
  t.equal(off.statusCode, 200);
  t.match(off.json(), { enabled: false, disabledReason: 'Desactivado por ti', events: ['contact.deleted'] });
  t.notOk('secret' in off.json());
  await platform.db.sql`update webhooks.endpoints set failing_since = now() where id = ${body.id}`;
  const on = (await call(me.authorization, 'PATCH', `/webhooks/${body.id}`, { enabled: true })).json();
  t.match(on, { enabled: true, disabledReason: null, failingSince: null }, 're-enabling clears the failure');

  t.equal((await call(me.authorization, 'DELETE', `/webhooks/${body.id}`)).statusCode, 204);
  t.equal((await call(me.authorization, 'GET', '/webhooks')).json().endpoints.length, 0);
});

t.test(`the ${WEBHOOK_ENDPOINTS_MAX + 1}th endpoint is refused in Spanish and nothing is written`, async (t) => {
  const me = signToken(app);
  for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) {
    t.equal((await call(me.authorization, 'POST', '/webhooks', { url: `http://127.0.0.1:9/${i}`, events: ['contact.created'] })).statusCode, 201);
  }
  const over = await call(me.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/x', events: ['contact.created'] });
  t.equal(over.statusCode, 409);
  t.match(over.json().message, /como máximo 10 webhooks/);
  t.equal((await call(me.authorization, 'GET', '/webhooks')).json().endpoints.length, WEBHOOK_ENDPOINTS_MAX);
  const other = signToken(app);
  t.equal((await call(other.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/x', events: ['contact.created'] })).statusCode, 201, 'the limit is per user');
});

t.test('bad input answers 400 in Spanish and writes nothing', async (t) => {
  const me = signToken(app);
  const cases: [unknown, RegExp][] = [
    [{ url: 'http://127.0.0.1:9/' }, /evento/],
    [{ url: 'http://127.0.0.1:9/', events: [] }, /al menos un tipo de evento/],
    [{ url: 'http://127.0.0.1:9/', events: ['contact.exploded'] }, /./],
    [{ url: 'http://127.0.0.1:9/', events: ['contact.created', 'contact.created'] }, /repetido/],
    [{ url: 'ftp://example.com/', events: ['contact.created'] }, /https/],
    [{ url: 'http://93.184.215.14/hook', events: ['contact.created'] }, /debe usar https/],
    [{ url: 'https://user:pw@93.184.215.14/hook', events: ['contact.created'] }, /usuario ni contraseña/],
    [{ url: 'http://127.0.0.1:9/', events: ['contact.created'], description: 'x'.repeat(201) }, /200 caracteres/],
    [{ url: 'http://127.0.0.1:9/', events: ['contact.created'], secret: 'mine' }, /./],
  ];
  for (const [payload, message] of cases) {
    const response = await call(me.authorization, 'POST', '/webhooks', payload);
    t.equal(response.statusCode, 400, JSON.stringify(payload));
    t.match(response.json().message, message);
  }
  t.equal((await call(me.authorization, 'PATCH', `/webhooks/${randomUUID()}`, {})).statusCode, 400, 'an empty patch');
  t.equal((await call(me.authorization, 'GET', '/webhooks/no-uuid/deliveries')).statusCode, 400);
  t.equal((await call(me.authorization, 'GET', '/webhooks')).json().endpoints.length, 0);
});

t.test('a port of 0 or past 65535 is a 400 in Spanish, on create and on patch, and nothing is written', async (t) => {
  const me = signToken(app);
  for (const url of ['http://127.0.0.1:0/hook', 'http://127.0.0.1:00/hook', 'https://example.com:0', 'http://127.0.0.1:65536/hook', 'https://example.com:99999/x', 'https://[2001:db8::1]:70000/']) {
    const response = await call(me.authorization, 'POST', '/webhooks', { url, events: ['contact.created'] });
    t.equal(response.statusCode, 400, url);
    t.match(response.json(), { code: 'WEBHOOK_URL_PORT', message: 'El puerto de la URL debe estar entre 1 y 65535' }, url);
  }
  t.equal((await call(me.authorization, 'GET', '/webhooks')).json().endpoints.length, 0, 'nothing written');
  const kept = (await call(me.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:65535/hook', events: ['contact.created'] })).json();
  t.equal(kept.url, 'http://127.0.0.1:65535/hook', 'the last port is a port');
  for (const url of ['http://127.0.0.1:0/hook', 'http://127.0.0.1:65536/hook']) {
    const moved = await call(me.authorization, 'PATCH', `/webhooks/${kept.id}`, { url });
    t.equal(moved.statusCode, 400, `patch to ${url}`);
    t.equal(moved.json().code, 'WEBHOOK_URL_PORT');
  }
  t.equal((await call(me.authorization, 'GET', '/webhooks')).json().endpoints[0].url, 'http://127.0.0.1:65535/hook', 'the patch wrote nothing');
});

t.test('a URL saved with port 0 before the rule is never sent to the default port', async (t) => {
  // Node reads port 0 as "no port": the request would go to :80. The sender refuses before any connection.
  const sent = await new HttpSender(new HostGuard('127.0.0.1')).send('http://127.0.0.1:0/hook', {}, '{}');
  t.same(sent, { status: null, latencyMs: sent.latencyMs, error: 'El puerto de la URL debe estar entre 1 y 65535' });
});

t.test('the host guard refuses private and special addresses unless allowed', async (t) => {
  const me = signToken(app);
  for (const url of ['https://10.0.0.1/hook', 'https://169.254.169.254/latest', 'https://[::1]/hook', 'https://2130706434/hook', 'https://0x7f000002/', 'https://192.168.1.10/']) {
    const response = await call(me.authorization, 'POST', '/webhooks', { url, events: ['contact.created'] });
    t.equal(response.statusCode, 400, url);
    t.equal(response.json().code, 'HOST_NOT_ALLOWED', url);
  }
  const first = (await call(me.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/', events: ['contact.created'] })).json();
  const moved = await call(me.authorization, 'PATCH', `/webhooks/${first.id}`, { url: 'https://10.1.2.3/' });
  t.equal(moved.statusCode, 400, 'a patch is checked too');
  t.equal((await call(me.authorization, 'GET', '/webhooks')).json().endpoints[0].url, 'http://127.0.0.1:9/');
});

t.test("another user's endpoint answers 404 everywhere", async (t) => {
  const owner = signToken(app);
  const stranger = signToken(app);
  const { id } = (await call(owner.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/', events: ['contact.created'] })).json();
  const delivery = randomUUID();
  for (const [method, url, payload] of [
    ['PATCH', `/webhooks/${id}`, { enabled: false }],
    ['DELETE', `/webhooks/${id}`],
    ['POST', `/webhooks/${id}/test`],
    ['GET', `/webhooks/${id}/deliveries`],
    ['POST', `/webhooks/${id}/deliveries/${delivery}/retry`],
  ] as const) {
    t.equal((await call(stranger.authorization, method, url, payload)).statusCode, 404, `${method} ${url}`);
  }
  t.equal((await call(owner.authorization, 'GET', '/webhooks')).json().endpoints[0].enabled, true, 'untouched');
});

t.test('a personal access token reaches no webhook route', async (t) => {
  const token = signToken(app, randomUUID(), ['contacts:read', 'contacts:write']);
  const response = await call(token.authorization, 'GET', '/webhooks');
  t.equal(response.statusCode, 403);
  t.match(response.json(), { code: 'TOKEN_SCOPE', message: 'Este token no tiene permiso para esta operación' }, 'the scope table opens /webhooks to no token');
  t.equal((await app.inject({ url: '/webhooks' })).statusCode, 401, 'no token at all');
});

t.test('user.deleted erases the user’s endpoints and their deliveries, and no one else’s', async (t) => {
  const gone = signToken(app);
  const kept = signToken(app);
  const mine = (await call(gone.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/', events: ['contact.created'] })).json();
  await call(kept.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/', events: ['contact.created'] });
  await call(gone.authorization, 'POST', `/webhooks/${mine.id}/test`);
  await platform.bus.publish([createEvent('user.deleted', gone.userId, { deletionId: randomUUID() })]);
  const count = async (userId: string) =>
    (await platform.db.sql<{ n: number }[]>`
      select (select count(*) from webhooks.endpoints where user_id = ${userId}) + (select count(*) from webhooks.deliveries where user_id = ${userId}) as n`)[0]!.n;
  t.equal(Number(await count(gone.userId)), 0);
  t.equal(Number(await count(kept.userId)), 1);
});

t.test('the URL rule the form shows is the one the server applies: https, http only to an address the operator allowed', async (t) => {
  const me = signToken(app);
  t.equal(WEBHOOK_URL_RULE, 'Debe empezar por https:// (http:// solo hacia una dirección de tu red que el administrador haya permitido)');
  for (const url of ['ftp://example.com/hook', 'example.com/hook', 'http://93.184.215.14/hook']) {
    const refused = await call(me.authorization, 'POST', '/webhooks', { url, events: ['contact.created'] });
    t.equal(refused.statusCode, 400, url);
    t.ok(refused.json().message.endsWith(WEBHOOK_URL_RULE), `${url}: ${refused.json().message}`);
  }
  const allowed = await call(me.authorization, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['contact.created'] });
  t.equal(allowed.statusCode, 201, 'http:// to an allowed local address is accepted, as the rule says');
});
