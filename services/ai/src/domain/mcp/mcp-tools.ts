import type { PersonalTokenScope, ServiceName } from '@asistente/contracts';
import { ServiceAnswerError, ServiceCallError, type MemberCaller } from '@asistente/kit';
import { OWNER_REACH } from '../tools/reach.js';
import type { ToolContext } from '../tools/tool.js';
import { argumentProblem } from './arguments.js';
import { MCP_TOOLS, toolsFor, type ToolHints } from './catalogue.js';

/** Who calls: a member, through a personal token (its scopes) or a session (no scopes: everything their role reaches). */
export interface McpCaller {
  member: MemberCaller;
  scopes?: readonly PersonalTokenScope[];
  /** The token's lasting id (a personal token's id, a session's jti): with a JSON-RPC id it names one call. */
  tokenId: string;
}

/** A tool as tools/list describes it. */
export interface McpToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolHints;
}

/** What a tools/call answers: one Spanish text for the model, and whether it is an error. */
export interface McpToolAnswer {
  text: string;
  isError: boolean;
}

/** A result longer than this is cut: a client's model reads pages, never dumps. */
const MAX_RESULT_CHARS = 20_000;

/** How a member calls the services a tool asks (a failure names the one that failed); any other by its name. */
const SERVICE_NAMES: Readonly<Record<string, string | undefined>> = {
  contacts: 'contactos',
  whatsapp: 'WhatsApp',
  email: 'correo',
  calendar: 'calendario',
  analytics: 'analítica',
} satisfies Partial<Record<ServiceName, string>>;

/**
 * The MCP server's tools for one caller: the catalogue bounded by the caller's scopes, run with the same
 * context the assistant's runs for a member use (the workspace, the member's service calls, the workspace's reach).
 */
export class McpTools {
  constructor(private readonly deps: Pick<ToolContext, 'services' | 'bookings'>) {}

  list(caller: McpCaller): McpToolDescription[] {
    return toolsFor(caller.scopes).map(({ tool, hints }) => ({
      name: tool.name,
      title: hints.title,
      description: tool.description,
      inputSchema: tool.parameters,
      annotations: hints,
    }));
  }

  /** `requestId` is the JSON-RPC id: a client retrying a call repeats it, so a write is not done twice. */
  async call(caller: McpCaller, name: string, args: Record<string, unknown>, requestId: string): Promise<McpToolAnswer> {
    const entry = MCP_TOOLS.find(({ tool }) => tool.name === name);
    if (!entry) return refusal(`No existe la herramienta «${name}».`);
    if (caller.scopes && !caller.scopes.includes(entry.scope)) {
      return refusal(`Este token no permite usar «${name}»: necesita el permiso ${entry.scope}.`);
    }
    const problem = argumentProblem(entry.tool.parameters, args);
    if (problem) return refusal(`Argumentos no válidos para «${name}»: ${problem}.`);
    const context: ToolContext = {
      workspaceId: caller.member.workspaceId,
      caller: caller.member,
      services: this.deps.services,
      reach: OWNER_REACH,
      bookings: this.deps.bookings,
      scopes: caller.scopes,
      callKey: `${caller.tokenId}\n${requestId}`,
    };
    try {
      const outcome = await entry.tool.run(context, args);
      const failed = isErrorResult(outcome.result);
      return { text: clip(`${outcome.summary}.\n${JSON.stringify(outcome.result)}`), isError: failed };
    } catch (error) {
      return refusal(failureMessage(error));
    }
  }
}

function refusal(text: string): McpToolAnswer {
  return { text, isError: true };
}

/** A tool that answered `{ error }` (an id that is not one, a missing recipient) refused the call. */
function isErrorResult(result: unknown): boolean {
  return typeof result === 'object' && result !== null && 'error' in result && Object.keys(result).length === 1;
}

/**
 * A sibling's refusal in its own Spanish words (a 4xx body's `message`: "Contacto no encontrado", "Correo
 * inválido"); a failure or an unreachable service as a plain sentence, never its details.
 */
function failureMessage(error: unknown): string {
  if (!(error instanceof ServiceCallError)) return 'La herramienta falló; vuelve a intentarlo.';
  if (error instanceof ServiceAnswerError) return `El servicio de ${SERVICE_NAMES[error.service] ?? error.service} respondió algo inesperado; avisa al soporte.`;
  const message = (error.body as { message?: unknown } | undefined)?.message;
  if (error.statusCode < 500 && typeof message === 'string' && message.trim()) return message;
  if (error.statusCode === 404) return 'No encontrado.';
  return `El servicio de ${SERVICE_NAMES[error.service] ?? error.service} no está disponible ahora; vuelve a intentarlo.`;
}

function clip(text: string): string {
  return text.length <= MAX_RESULT_CHARS ? text : `${text.slice(0, MAX_RESULT_CHARS)}…(recortado: pide una página más pequeña)`;
}
