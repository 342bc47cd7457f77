import { createServer } from 'node:net';
import t, { type Test } from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Contact, ContactList, PersonalTokenScope } from '@asistente/contracts';
import { authPlugin, createHttpApp, type App } from '@asistente/kit';
import { createTestPlatform, signToken } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { ROUTES } from '../src/routing-table.js';

/**
 * The MCP server at /api/mcp, driven by the SDK's own Client over StreamableHTTPClientTransport against a
 * listening gateway: embedded (every service in the gateway's process) and distributed (the gateway proxying
 * to the services, which call each other over HTTP), with house tokens carrying personal-token scopes.
 */

const WRITE_TOOLS = ['crear_contacto', 'enviar_whatsapp', 'crear_evento'];
const ALL_TOOLS = [
  'buscar_contactos',
  'leer_contacto',
  'historial_contacto',
  'listar_chats_whatsapp',
  'leer_mensajes_whatsapp',
  'buscar_correos',
  'listar_eventos',
  'buscar_huecos_libres',
  'resumen_analitica',
  ...WRITE_TOOLS,
];

interface Topology {
  base: string;
  /**
   * Whether personal tokens made through POST /api/auth/tokens reach the MCP server here: embedded always;
   * distributed when the edge shares the services' database (real PostgreSQL), as every deployment does.
   */
  realTokens: boolean;
  /** A token for `userId` as the gateway would pass it on: a session without scopes, a personal token with. */
  token(userId?: string, scopes?: PersonalTokenScope[]): { userId: string; authorization: string };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function embedded(t: Test): Promise<Topology> {
  const platform = await createTestPlatform(t);
  const gateway = await buildGateway(platform, 'embedded');
  const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => gateway.close());
  return { base, realTokens: true, token: (userId, scopes) => signToken(gateway, userId, scopes) };
}

/** The services behind a distributed gateway: one process here, each service at its own paths, asking its siblings over HTTP. */
async function distributed(t: Test): Promise<Topology> {
  const port = await freePort();
  const serviceUrl = `http://127.0.0.1:${port}`;
  const urls = Object.fromEntries(ROUTES.map((route) => [route.urlVariable, serviceUrl]));
  const services = await createTestPlatform(t, { nats: true, config: urls });
  const backend: App = createHttpApp({ log: services.log, bodyLimit: services.config.BODY_LIMIT_BYTES, streams: services.streams });
  await backend.register(authPlugin, { tokens: services.tokens, revocations: services.revocations });
  for (const route of ROUTES.filter((r) => ['auth', 'contacts', 'whatsapp', 'email', 'calendar', 'analytics', 'ai'].includes(r.name))) {
    await backend.register((await route.load()).default, { platform: services });
  }
  await backend.listen({ port, host: '127.0.0.1' });
  t.teardown(() => backend.close());
  // On PostgreSQL the edge reads the services' database, as deployed (it looks personal tokens up there).
  const shared = process.env.DATABASE_URL ? { DATABASE_URL: services.config.DATABASE_URL } : {};
  const edge = await createTestPlatform(t, { config: { ...urls, ...shared, JWT_SECRET: services.config.JWT_SECRET } });
  const gateway = await buildGateway(edge, 'distributed');
  const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => gateway.close());
  return {
    base,
    realTokens: Boolean(process.env.DATABASE_URL),
    token: (userId, scopes) => {
      // Each process checks that the user exists: both are told to take this one.
      const signed = signToken(gateway, userId, scopes);
      signToken(backend, signed.userId);
      return signed;
    },
  };
}

/** The SDK's client, connected (initialize done) with this Authorization header. */
async function connect(t: Test, base: string, authorization?: string): Promise<Client> {
  const client = new Client({ name: 'prueba-mcp', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
    requestInit: authorization ? { headers: { authorization } } : {},
  });
  await client.connect(transport);
  t.teardown(() => client.close());
  return client;
}

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[] };
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; text: string; data: Record<string, unknown> }> {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = answer.content.map((part) => part.text).join('\n');
  const json = text.slice(text.indexOf('\n') + 1);
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(json) as Record<string, unknown>;
  } catch {
    // A refusal is one Spanish sentence, no JSON.
  }
  return { isError: answer.isError === true, text, data };
}

async function rest<T>(base: string, authorization: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/api${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
}

for (const [name, start] of [
  ['embedded', embedded],
  ['distributed', distributed],
] as const) {
  t.test(`${name}: the MCP server answers the SDK's client with the user's own data, bounded by the token's scopes`, async (t) => {
    if (name === 'distributed' && !process.env.NATS_URL) t.comment('distributed pass on the in-process bus (NATS_URL unset)');
    const { base, token, realTokens } = await start(t);
    const owner = token();
    const other = token();
    const create = (who: { authorization: string }, body: Record<string, unknown>) => rest<Contact>(base, who.authorization, '/contacts', { method: 'POST', body });
    const marta = await create(owner, { firstName: 'Marta', lastName: 'Ruiz', email: 'marta@propia.example', phone: '+34600111222' });
    t.equal(marta.status, 201);
    const othersMarta = await create(other, { firstName: 'Marta', lastName: 'Ajena', email: 'marta@ajena.example' });
    t.equal(othersMarta.status, 201);
    for (const n of [1, 2, 3]) t.equal((await create(owner, { firstName: 'Paginado', lastName: String(n) })).status, 201);

    await t.test('no token: 401, and the client cannot even initialize', async (t) => {
      const res = await fetch(`${base}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      t.equal(res.status, 401);
      t.match(await res.json(), { statusCode: 401, message: /\S/ });
      await t.rejects(connect(t, base), /401|Unauthorized|autoriz/i);
    });

    await t.test('initialize: the server names itself, offers tools and says how lists page', async (t) => {
      const client = await connect(t, base, token(owner.userId, ['contacts:read']).authorization);
      t.match(client.getServerVersion(), { name: 'mi-asistente', title: 'Mi Asistente.IA' });
      t.ok(client.getServerCapabilities()?.tools, 'tools capability');
      t.match(client.getInstructions(), /hayMas/);
    });

    await t.test('a read-only token (contacts:read) sees only its reads, and a write is refused in Spanish', async (t) => {
      const client = await connect(t, base, token(owner.userId, ['contacts:read']).authorization);
      const { tools } = await client.listTools();
      t.same(tools.map((tool) => tool.name), ['buscar_contactos', 'leer_contacto', 'historial_contacto']);
      for (const tool of tools) t.match(tool.annotations, { readOnlyHint: true }, `${tool.name} is annotated read-only`);

      const refused = await call(client, 'crear_contacto', { nombre: 'Intrusa' });
      t.equal(refused.isError, true);
      t.equal(refused.text, 'Este token no permite usar «crear_contacto»: necesita el permiso contacts:write.');
      const search = await rest<ContactList>(base, owner.authorization, '/contacts?search=Intrusa');
      t.equal(search.body.total, 0, 'nothing was written');
      t.match((await call(client, 'listar_chats_whatsapp')).text, /necesita el permiso whatsapp:read/);
    });

    await t.test('tools/call answers the owner\'s data, never another user\'s', async (t) => {
      const client = await connect(t, base, token(owner.userId, ['contacts:read']).authorization);
      const found = await call(client, 'buscar_contactos', { texto: 'Marta' });
      t.equal(found.isError, false);
      t.match(found.text, /^Buscó contactos «Marta»: 1 encontrado\./);
      t.match(found.data, { total: 1, hayMas: false, contactos: [{ id: marta.body.id, nombre: 'Marta Ruiz', email: 'marta@propia.example' }] });
      t.notMatch(found.text, /ajena/, "the other user's Marta is not there");

      const read = await call(client, 'leer_contacto', { id: marta.body.id });
      t.match(read.data, { nombre: 'Marta Ruiz', telefono: '+34600111222' });
      const foreign = await call(client, 'leer_contacto', { id: othersMarta.body.id });
      t.same({ isError: foreign.isError, text: foreign.text }, { isError: true, text: 'Contacto no encontrado' }, "another user's contact is not found");

      const timeline = await call(client, 'historial_contacto', { id: marta.body.id });
      t.equal(timeline.isError, false);
      t.same(timeline.data, { canales: [] }, 'contacts:read alone reads no channel of the timeline');
      const wider = await call(await connect(t, base, token(owner.userId, ['contacts:read', 'whatsapp:read']).authorization), 'historial_contacto', { id: marta.body.id });
      for (const channel of (wider.data.canales ?? []) as { canal: string }[]) t.equal(channel.canal, 'WhatsApp', 'only the channels the token reads');
    });

    await t.test('lists come in pages with a "hay más" hint', async (t) => {
      const client = await connect(t, base, token(owner.userId, ['contacts:read']).authorization);
      const first = await call(client, 'buscar_contactos', { texto: 'Paginado', limite: 2 });
      t.match(first.data, { total: 3, pagina: 1, hayMas: true, siguientePagina: 2 });
      t.equal((first.data.contactos as unknown[]).length, 2);
      t.match(first.text, /hay más \(página 2\)/);
      const second = await call(client, 'buscar_contactos', { texto: 'Paginado', limite: 2, pagina: 2 });
      t.match(second.data, { total: 3, pagina: 2, hayMas: false });
      t.equal((second.data.contactos as unknown[]).length, 1);
      const bad = await call(client, 'buscar_contactos', { texto: 'Paginado', limite: 500 });
      t.same({ isError: bad.isError, text: bad.text }, { isError: true, text: 'Argumentos no válidos para «buscar_contactos»: «limite» debe ser como máximo 25.' });
    });

    await t.test('a write token creates a contact that the REST API then shows, to its owner only', async (t) => {
      const client = await connect(t, base, token(owner.userId, ['contacts:read', 'contacts:write']).authorization);
      const { tools } = await client.listTools();
      t.same(tools.map((tool) => tool.name), ['buscar_contactos', 'leer_contacto', 'historial_contacto', 'crear_contacto']);
      t.match(tools.find((tool) => tool.name === 'crear_contacto')?.annotations, { readOnlyHint: false, destructiveHint: false });

      const missing = await call(client, 'crear_contacto', { apellidos: 'Sin nombre' });
      t.same({ isError: missing.isError, text: missing.text }, { isError: true, text: 'Argumentos no válidos para «crear_contacto»: Falta el argumento «nombre».' });
      const invalid = await call(client, 'crear_contacto', { nombre: 'Eva', email: 'no-es-correo' });
      t.same({ isError: invalid.isError, text: invalid.text }, { isError: true, text: 'Correo inválido' }, "the contacts service's own Spanish message");

      const created = await call(client, 'crear_contacto', { nombre: 'Lucía', apellidos: 'Pérez', email: 'lucia@mcp.example', etiquetas: ['mcp'] });
      t.equal(created.isError, false);
      t.match(created.text, /^Creó el contacto Lucía Pérez\./);
      const listed = await rest<ContactList>(base, owner.authorization, '/contacts?search=lucia%40mcp.example');
      t.match(listed.body, { total: 1, contacts: [{ firstName: 'Lucía', lastName: 'Pérez', tags: ['mcp'] }] });
      t.equal((await rest<ContactList>(base, other.authorization, '/contacts?search=lucia%40mcp.example')).body.total, 0, 'not in the other user\'s list');
    });

    await t.test('a session (no scopes) sees every tool; writes are annotated as writes', async (t) => {
      const client = await connect(t, base, owner.authorization);
      const { tools } = await client.listTools();
      t.same(tools.map((tool) => tool.name), ALL_TOOLS);
      for (const tool of tools) t.equal(tool.annotations?.readOnlyHint, !WRITE_TOOLS.includes(tool.name), `${tool.name} readOnlyHint`);
      t.match(tools.find((tool) => tool.name === 'enviar_whatsapp')?.annotations, { openWorldHint: true, destructiveHint: false });
    });

    await t.test('the other read tools answer in Spanish: WhatsApp chats and the analytics summary', async (t) => {
      const client = await connect(t, base, token(owner.userId, ['whatsapp:read', 'analytics:read']).authorization);
      const chats = await call(client, 'listar_chats_whatsapp', { limite: 5 });
      t.equal(chats.isError, false, chats.text);
      t.match(chats.data, { total: 0, pagina: 1, chats: [], hayMas: false });
      const summary = await call(client, 'resumen_analitica', { periodo: '7d' });
      t.equal(summary.isError, false, summary.text);
      t.match(summary.data, { periodo: '7 días', contactos: Number, correos: { enviados: Number }, whatsapp: { recibidos: Number } });
      const badPeriod = await call(client, 'resumen_analitica', { periodo: 'siempre' });
      t.match(badPeriod.text, /«periodo» debe ser uno de: 7d, 30d, 90d, 1y/);
    });

    if (realTokens) {
      await t.test('a real personal token, made through POST /api/auth/tokens, opens the MCP server within its scopes', async (t) => {
        const email = `mcp.${Date.now()}.${Math.random().toString(36).slice(2)}@ejemplo.es`;
        const registered = await fetch(`${base}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ firstName: 'Ana', lastName: 'López', email, password: 'secreto-largo-1' }),
        });
        t.equal(registered.status, 201);
        const session = `Bearer ${((await registered.json()) as { token: string }).token}`;
        t.equal((await rest<Contact>(base, session, '/contacts', { method: 'POST', body: { firstName: 'Rocío', lastName: 'Vidal' } })).status, 201);
        const made = async (scopes: PersonalTokenScope[]) => {
          const res = await rest<{ id: string; token: string }>(base, session, '/auth/tokens', { method: 'POST', body: { name: 'Cliente MCP', scopes, expiresInDays: 30 } });
          t.equal(res.status, 201, 'token created');
          t.match(res.body.token, /^asis_pat_/);
          return res.body;
        };

        const reader = await made(['contacts:read']);
        const client = await connect(t, base, `Bearer ${reader.token}`);
        t.same((await client.listTools()).tools.map((tool) => tool.name), ['buscar_contactos', 'leer_contacto', 'historial_contacto']);
        t.match((await call(client, 'buscar_contactos', { texto: 'Rocío' })).data, { total: 1, contactos: [{ nombre: 'Rocío Vidal' }] });
        t.match((await call(client, 'crear_contacto', { nombre: 'No' })).text, /necesita el permiso contacts:write/);

        const writer = await made(['contacts:read', 'contacts:write']);
        const writing = await connect(t, base, `Bearer ${writer.token}`);
        t.equal((await call(writing, 'crear_contacto', { nombre: 'Creada', apellidos: 'Con token' })).isError, false);
        t.equal((await rest<ContactList>(base, session, '/contacts?search=Creada')).body.total, 1, 'the REST API shows it');

        const revoked = await fetch(`${base}/api/auth/tokens/${reader.id}`, { method: 'DELETE', headers: { authorization: session } });
        t.equal(revoked.status, 204);
        await t.rejects(client.listTools(), /401/, 'a revoked token is refused at once');
      });
    } else {
      t.comment('personal tokens made through /api/auth/tokens: embedded here; distributed with DATABASE_URL (the edge reads the shared database)');
    }

    await t.test('stateless: GET and DELETE answer 405, and no session id is handed out', async (t) => {
      const { authorization } = token(owner.userId, ['contacts:read']);
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${base}/api/mcp`, { method, headers: { authorization, accept: 'text/event-stream' } });
        t.equal(res.status, 405, method);
        t.match(await res.json(), { statusCode: 405, code: 'MCP_STATELESS', message: /envía cada mensaje con POST/ });
      }
      const init = await fetch(`${base}/api/mcp`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } }),
      });
      t.equal(init.status, 200);
      t.equal(init.headers.get('mcp-session-id'), null);
      t.match(init.headers.get('content-type'), /application\/json/);
    });
  });
}
