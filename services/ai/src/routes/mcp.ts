import { ErrorResponse } from '@asistente/contracts';
import { AppError, callerOf, callerTokenId, exchangedFromPersonalToken, type App, type PersonalTokenBudget } from '@asistente/kit';
import { Type } from '@sinclair/typebox';
import { answerMcpRequest } from '../adapters/mcp-server.js';
import type { McpTools } from '../domain/mcp/mcp-tools.js';

/** A JSON-RPC 2.0 message as the reference shows it; the SDK's transport checks the message itself. */
const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    method: Type.Optional(Type.String()),
    params: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true, description: 'Mensaje JSON-RPC 2.0 del protocolo MCP (initialize, tools/list, tools/call…)' },
);
const JsonRpcAnswer = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String() })),
  },
  { description: 'Respuesta JSON-RPC 2.0' },
);

/** The house's error shape (as every 4xx of the API): the transport's specification asks only for the 405. */
const NO_STREAM = {
  statusCode: 405,
  code: 'MCP_STATELESS',
  error: 'Method Not Allowed',
  message: 'Este servidor MCP no mantiene sesiones ni flujos abiertos: envía cada mensaje con POST.',
} as const;

const DESCRIPTION =
  'Servidor MCP (transporte Streamable HTTP, sin estado) para clientes de IA. Autenticación con un token de acceso ' +
  'personal: sus permisos deciden qué herramientas ofrece (las de escritura solo con contacts:write, whatsapp:send o ' +
  'calendar:write). Cada petición necesita `Accept: application/json, text/event-stream`. En un lote JSON-RPC, cada ' +
  'mensaje cuenta como una petición en el límite por minuto del token (429 con Retry-After si el lote no cabe).';

/** What the Streamable HTTP transport asks of every POST: both answer forms accepted. */
function acceptsBoth(accept: string | undefined): boolean {
  return Boolean(accept?.includes('application/json') && accept.includes('text/event-stream'));
}

/**
 * /mcp: the MCP server. POST carries every message; with no sessions and no server-initiated stream, GET and
 * DELETE answer 405 as the transport's specification asks of a stateless server (clients then simply POST).
 */
export async function mcpRoutes(app: App, { tools, budget }: { tools: McpTools; budget: PersonalTokenBudget }): Promise<void> {
  app.post('/mcp', {
    schema: {
      summary: 'Servidor MCP: un mensaje JSON-RPC del cliente',
      description: DESCRIPTION,
      body: Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage, { minItems: 1, maxItems: 100 })]),
      response: {
        200: Type.Union([JsonRpcAnswer, Type.Array(JsonRpcAnswer)]),
        202: Type.Null({ description: 'Notificación recibida; sin respuesta' }),
        // The house's 400 for a body that is not JSON-RPC; the transport's own JSON-RPC error for the rest.
        400: Type.Union([ErrorResponse, JsonRpcAnswer]),
        401: ErrorResponse,
        406: ErrorResponse,
        415: JsonRpcAnswer,
        429: ErrorResponse,
      },
    },
    handler: async (request, reply) => {
      // The transport refuses such a client too, but in JSON-RPC words: the API's errors are the house's, in Spanish.
      if (!acceptsBoth(request.headers.accept)) {
        throw new AppError(406, 'MCP_NOT_ACCEPTABLE', 'El cliente MCP debe aceptar application/json y text/event-stream (cabecera Accept).');
      }
      // The gateway counted this request once; each further call of a batch counts as a request of its own,
      // against the same budget of the personal token, before any of them runs.
      const tokenId = exchangedFromPersonalToken(request.user.jti);
      const calls = Array.isArray(request.body) ? request.body.length : 1;
      if (tokenId !== undefined && calls > 1) await budget.spend(tokenId, calls - 1, calls);
      // The transport writes the answer itself; the request id the house echoes is set on the raw response.
      reply.raw.setHeader('x-request-id', request.id);
      reply.hijack();
      await answerMcpRequest(tools, { member: callerOf(request.user), scopes: request.user.scopes, tokenId: callerTokenId(request.user.jti) }, request.raw, reply.raw, request.body);
    },
  });

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      schema: {
        summary: method === 'GET' ? 'Servidor MCP: flujo de avisos (no disponible, 405)' : 'Servidor MCP: cerrar sesión (sin sesiones, 405)',
        description: 'El servidor no tiene estado: no abre flujos SSE ni guarda sesiones. Responde 405 como pide el transporte Streamable HTTP.',
        response: { 401: ErrorResponse, 405: ErrorResponse },
      },
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(NO_STREAM),
    });
  }
}
