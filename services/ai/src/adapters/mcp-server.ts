import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpCaller, McpTools } from '../domain/mcp/mcp-tools.js';

/**
 * The SDK (with zod, ~20 MB resident) is loaded by the first MCP request, not with the service: most
 * installs never connect an MCP client. Node keeps the modules once loaded.
 */
async function loadSdk() {
  const [{ Server }, { StreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { Server, StreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema };
}

const SERVER_INFO = { name: 'mi-asistente', title: 'Mi Asistente.IA', version: '1.0.0' };

const INSTRUCTIONS =
  'Datos del negocio del usuario: contactos, WhatsApp, correo, calendario y analítica, solo los suyos y solo lo que ' +
  'permite su token. Las listas van por páginas: si una respuesta dice hayMas, pide siguientePagina.';

/**
 * Answers one MCP request (one HTTP POST) with the SDK's Streamable HTTP transport in stateless mode: a fresh
 * server and transport per request, no session id, nothing kept in this process, so any replica answers any
 * request. JSON answers (no SSE stream): every tool answers at once, and a plain JSON body crosses any proxy.
 * The low-level `Server` takes the tools' own JSON Schemas as they are (the assistant's tools are described
 * that way for the model), where `McpServer` would want them rewritten in zod.
 */
export async function answerMcpRequest(tools: McpTools, caller: McpCaller, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const { Server, StreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema } = await loadSdk();
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list(caller) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const answer = await tools.call(caller, request.params.name, request.params.arguments ?? {}, String(extra.requestId));
    return { content: [{ type: 'text' as const, text: answer.text }], isError: answer.isError };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
