import t, { type Test } from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import contactsService from '@asistente/contacts';
import type { PersonalTokenScope } from '@asistente/contracts';
import { buildServicesApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import aiService from '../src/app.js';
import { argumentProblem } from '../src/domain/mcp/arguments.js';
import { MCP_TOOLS } from '../src/domain/mcp/catalogue.js';
import { calendarSource } from '../src/domain/tools/calendar.tools.js';
import { contactsSource } from '../src/domain/tools/contacts.tools.js';
import { emailsSource } from '../src/domain/tools/emails.tools.js';
import { whatsappSource } from '../src/domain/tools/whatsapp.tools.js';
import { memoryLogger } from './fixtures/memory-log.js';
import { CalendarSibling, EmailSibling, WhatsAppSibling } from './fixtures/siblings.js';

/**
 * The MCP server's tools over WhatsApp, mail and the calendar, against stand-ins of those services that record
 * what they were asked and by whom (the gateway's MCP test drives contacts, analytics and the real services).
 */
const logs = memoryLogger();
const platform = await createTestPlatform(t, { log: logs.log });
const whatsapp = new WhatsAppSibling();
const email = new EmailSibling();
const calendar = new CalendarSibling();
const app = await buildServicesApp(t, [contactsService, whatsapp.plugin, email.plugin, calendar.plugin, aiService], platform);
const base = await app.listen({ port: 0, host: '127.0.0.1' });

async function connect(t: Test, userId: string, scopes?: PersonalTokenScope[]): Promise<Client> {
  const client = new Client({ name: 'prueba', version: '1.0.0' });
  const { authorization } = signToken(app, userId, scopes);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { authorization } } }));
  t.teardown(() => client.close());
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const answer = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
  const text = answer.content[0]!.text;
  const newline = text.indexOf('\n');
  return { isError: answer.isError === true, text, data: newline < 0 ? {} : (JSON.parse(text.slice(newline + 1)) as Record<string, unknown>) };
}

const owner = signToken(app).userId;
const other = signToken(app).userId;
const JID = '34600111222@s.whatsapp.net';

t.test("one implementation: the MCP server's reads are the assistant's owner tools themselves", async (t) => {
  for (const source of [contactsSource, whatsappSource, emailsSource, calendarSource]) {
    for (const tool of source.tools) t.equal(MCP_TOOLS.find((entry) => entry.tool.name === tool.name)?.tool, tool, `${tool.name} is the same object`);
  }
  t.same(new Set(MCP_TOOLS.map((entry) => entry.tool.name)).size, MCP_TOOLS.length, 'names are unique');
  for (const { tool, scope, hints } of MCP_TOOLS) {
    const writes = /:(write|send)$/.test(scope);
    t.equal(hints.readOnlyHint, !writes, `${tool.name}: readOnlyHint follows its scope (${scope})`);
  }
});

t.test('enviar_whatsapp sends as the token\'s user with whatsapp:send, and only then', async (t) => {
  whatsapp.connect(owner);
  const reader = await connect(t, owner, ['whatsapp:read']);
  t.notOk((await reader.listTools()).tools.some((tool) => tool.name === 'enviar_whatsapp'), 'a read token is not offered the send');
  const refused = await call(reader, 'enviar_whatsapp', { jid: JID, texto: 'Hola' });
  t.same({ isError: refused.isError, text: refused.text }, { isError: true, text: 'Este token no permite usar «enviar_whatsapp»: necesita el permiso whatsapp:send.' });
  t.equal(whatsapp.requested.length, 0, 'nothing reached WhatsApp');

  const sender = await connect(t, owner, ['whatsapp:read', 'whatsapp:send']);
  const tool = (await sender.listTools()).tools.find((candidate) => candidate.name === 'enviar_whatsapp');
  t.match(tool?.annotations, { readOnlyHint: false, destructiveHint: false, openWorldHint: true });
  const sent = await call(sender, 'enviar_whatsapp', { jid: JID, texto: 'Su pedido está listo' });
  t.equal(sent.isError, false, sent.text);
  t.match(sent.text, /^Envió un WhatsApp al chat 34600111222\./);
  t.same(whatsapp.sent, [{ userId: owner, jid: JID, type: 'text', text: 'Su pedido está listo', origin: 'app' }]);

  const read = await call(sender, 'leer_mensajes_whatsapp', { jid: JID });
  t.match(read.data, { total: 1, hayMas: false, mensajes: [{ de: 'negocio', texto: 'Su pedido está listo' }] });
  const foreign = await call(await connect(t, other, ['whatsapp:read']), 'leer_mensajes_whatsapp', { jid: JID });
  t.match(foreign.data, { total: 0, mensajes: [] }, "another user's token reads its own (empty) chat, not the owner's");

  const unconnected = await call(await connect(t, other, ['whatsapp:send']), 'enviar_whatsapp', { telefono: '+34600999888', texto: 'Hola' });
  t.same({ isError: unconnected.isError, text: unconnected.text }, { isError: true, text: 'WhatsApp no está conectado' });
  const nobody = await call(sender, 'enviar_whatsapp', { texto: 'Hola' });
  t.same({ isError: nobody.isError, text: nobody.text }, { isError: true, text: 'Pidió enviar un WhatsApp sin destinatario.\n{"error":"Indica el chat (jid) o el teléfono"}' });
});

t.test('enviar_whatsapp retried with the same JSON-RPC id sends once; a new id, or another message, sends again', async (t) => {
  const userId = signToken(app).userId;
  whatsapp.connect(userId);
  const { authorization } = signToken(app, userId, ['whatsapp:send']);
  // A client that lost the answer posts the very same request again (same id), as a raw JSON-RPC message.
  const post = async (id: number, texto: string) => {
    const response = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'enviar_whatsapp', arguments: { jid: JID, texto } } }),
    });
    const answer = (await response.json()) as { result: { isError: boolean; content: { text: string }[] } };
    t.equal(answer.result.isError, false, answer.result.content[0]!.text);
    return answer.result.content[0]!.text;
  };
  const mine = () => whatsapp.sent.filter((sent) => sent.userId === userId).map((sent) => sent.text);
  const first = await post(7, 'Le confirmo la cita');
  const retried = await post(7, 'Le confirmo la cita');
  t.equal(whatsapp.requested.filter((asked) => asked.userId === userId).length, 2, 'both reached WhatsApp');
  t.same(mine(), ['Le confirmo la cita'], 'one message went out');
  t.equal(retried, first, 'the retry answers with the message already queued');
  await post(8, 'Le confirmo la cita');
  await post(7, 'Otra cosa');
  t.same(mine(), ['Le confirmo la cita', 'Le confirmo la cita', 'Otra cosa'], 'a new request, or another text under a reused id, is a new send');
});

t.test("buscar_correos reads the token user's mail only", async (t) => {
  email.connect(owner);
  email.deliver(owner, 'proveedor@ejemplo.es', 'Factura de octubre', 'Adjuntamos la factura');
  email.deliver(other, 'ajeno@ejemplo.es', 'Factura ajena', 'No es tuya');
  const client = await connect(t, owner, ['emails:read']);
  t.same((await client.listTools()).tools.map((tool) => tool.name), ['buscar_correos']);
  const found = await call(client, 'buscar_correos', { texto: 'factura' });
  t.match(found.data, { pagina: 1, hayMas: false, correos: [{ de: 'proveedor@ejemplo.es', asunto: 'Factura de octubre' }] });
  t.notMatch(found.text, /ajen/);
});

t.test('a sibling answering outside its contract is a clear, logged failure with a Spanish message, never a wrong value', async (t) => {
  email.connect(owner);
  email.deliver(owner, 'proveedor@ejemplo.es', 'Presupuesto', 'Adjunto el presupuesto');
  email.answersOutsideContract = true;
  t.teardown(() => (email.answersOutsideContract = false));
  const found = await call(await connect(t, owner, ['emails:read']), 'buscar_correos', { texto: 'presupuesto' });
  t.same({ isError: found.isError, text: found.text }, { isError: true, text: 'El servicio de correo respondió algo inesperado; avisa al soporte.' });
  t.match(logs.text(), /"service":"email","path":"\/emails","problem":"[^"]+","msg":"a sibling answered outside its contract"/);
  t.notMatch(logs.text(), /Presupuesto|proveedor@ejemplo/, 'no value of the answer is logged');
});

t.test('crear_evento writes to the token user\'s calendar with calendar:write; listar_eventos pages', async (t) => {
  const client = await connect(t, owner, ['calendar:read', 'calendar:write']);
  t.same((await client.listTools()).tools.map((tool) => tool.name), ['listar_eventos', 'buscar_huecos_libres', 'crear_evento']);
  const missing = await call(client, 'crear_evento', { titulo: 'Sin fechas' });
  t.equal(missing.text, 'Argumentos no válidos para «crear_evento»: Falta el argumento «inicio».');
  const created = await call(client, 'crear_evento', { titulo: 'Visita de obra', inicio: '2026-12-01T10:00:00.000Z', fin: '2026-12-01T11:00:00.000Z', lugar: 'Calle Mayor 1' });
  t.equal(created.isError, false, created.text);
  t.match(created.data, { creado: { id: 'N1', titulo: 'Visita de obra' } });
  t.same(calendar.created, [
    { userId: owner, body: { title: 'Visita de obra', startTime: '2026-12-01T10:00:00.000Z', endTime: '2026-12-01T11:00:00.000Z', location: 'Calle Mayor 1' } },
  ]);

  for (const day of [1, 2, 3]) calendar.schedule(owner, `Cita ${day}`, `2026-12-0${day}T09:00:00.000Z`, []);
  const range = { desde: '2026-11-30T00:00:00.000Z', hasta: '2026-12-05T00:00:00.000Z' };
  const first = await call(client, 'listar_eventos', { ...range, limite: 2 });
  t.match(first.data, { total: 3, hayMas: true, siguientePagina: 2, eventos: [{ titulo: 'Cita 1' }, { titulo: 'Cita 2' }] });
  const second = await call(client, 'listar_eventos', { ...range, limite: 2, pagina: 2 });
  t.match(second.data, { total: 3, hayMas: false, eventos: [{ titulo: 'Cita 3' }] });
  t.match((await call(await connect(t, other, ['calendar:read']), 'listar_eventos', range)).data, { total: 0 }, "another user's calendar is their own");
});

t.test('arguments are checked against the tool\'s schema, in Spanish', async (t) => {
  const schema = {
    type: 'object',
    properties: {
      texto: { type: 'string', minLength: 1, maxLength: 5 },
      limite: { type: 'integer', minimum: 1, maximum: 10 },
      periodo: { type: 'string', enum: ['7d', '30d'] },
      etiquetas: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2 },
      todoElDia: { type: 'boolean' },
    },
    required: ['texto'],
    additionalProperties: false,
  };
  const cases: [Record<string, unknown>, string | undefined][] = [
    [{ texto: 'hola', limite: 3, periodo: '7d', etiquetas: ['a'], todoElDia: true }, undefined],
    [{}, 'Falta el argumento «texto»'],
    [{ texto: '   ' }, '«texto» no puede estar vacío'],
    [{ texto: 'demasiado' }, '«texto» admite como máximo 5 caracteres'],
    [{ texto: 'a\u0000' }, '«texto» contiene caracteres no válidos'],
    [{ texto: 'a', limite: 2.5 }, '«limite» debe ser un número entero'],
    [{ texto: 'a', limite: 0 }, '«limite» debe ser como mínimo 1'],
    [{ texto: 'a', periodo: 'siempre' }, '«periodo» debe ser uno de: 7d, 30d'],
    [{ texto: 'a', etiquetas: 'vip' }, '«etiquetas» debe ser una lista'],
    [{ texto: 'a', etiquetas: ['a', 'b', 'c'] }, '«etiquetas» admite como máximo 2 elementos'],
    [{ texto: 'a', etiquetas: ['larga'] }, '«etiquetas[]» admite como máximo 3 caracteres'],
    [{ texto: 'a', todoElDia: 'sí' }, '«todoElDia» debe ser verdadero o falso'],
    [{ texto: 'a', otro: 1 }, 'Argumento desconocido: «otro»'],
  ];
  for (const [args, expected] of cases) t.equal(argumentProblem(schema, args), expected, JSON.stringify(args));
});
