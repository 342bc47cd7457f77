import type { PersonalTokenScope } from '@asistente/contracts';
import { analyticsSummaryTool } from '../tools/analytics.tools.js';
import { calendarSource, createEventTool, freeSlotsTool } from '../tools/calendar.tools.js';
import { contactsSource, contactTimelineTool, createContactTool } from '../tools/contacts.tools.js';
import { emailsSource } from '../tools/emails.tools.js';
import type { AssistantTool } from '../tools/tool.js';
import { listChatsTool, sendWhatsAppTool, whatsappSource } from '../tools/whatsapp.tools.js';

/** The MCP tool annotations (hints a client shows its user), as the protocol names them. */
export interface ToolHints {
  title: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  /** True when the tool reaches past this product (a message leaves, a provider's calendar changes). */
  openWorldHint: boolean;
}

/** One tool the MCP server offers: an assistant tool, the scope a personal token needs for it, its hints. */
export interface McpTool {
  tool: AssistantTool;
  scope: PersonalTokenScope;
  hints: ToolHints;
}

const read = (title: string, openWorldHint = false): ToolHints => ({ title, readOnlyHint: true, openWorldHint });

/** The owner's tool of `source` named `name`: the very object the assistant's runs call. */
function ownerTool(source: { tools: AssistantTool[] }, name: string): AssistantTool {
  const tool = source.tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`the assistant has no tool ${name}`);
  return tool;
}

/**
 * Everything the MCP server can offer, in the order a client lists it. The reads are the assistant's owner
 * tools themselves (one implementation: same sibling calls with the same user-scoped token, same trimming);
 * the rest are tools of the same shape in the same modules. Customer-bound tools are never offered here: an
 * MCP caller is the owner, through their own token.
 */
export const MCP_TOOLS: readonly McpTool[] = [
  { tool: ownerTool(contactsSource, 'buscar_contactos'), scope: 'contacts:read', hints: read('Buscar contactos') },
  { tool: ownerTool(contactsSource, 'leer_contacto'), scope: 'contacts:read', hints: read('Leer un contacto') },
  { tool: contactTimelineTool, scope: 'contacts:read', hints: read('Historial de un contacto') },
  { tool: listChatsTool, scope: 'whatsapp:read', hints: read('Listar chats de WhatsApp') },
  { tool: ownerTool(whatsappSource, 'leer_mensajes_whatsapp'), scope: 'whatsapp:read', hints: read('Leer un chat de WhatsApp') },
  { tool: ownerTool(emailsSource, 'buscar_correos'), scope: 'emails:read', hints: read('Buscar correos') },
  { tool: ownerTool(calendarSource, 'listar_eventos'), scope: 'calendar:read', hints: read('Listar eventos') },
  { tool: freeSlotsTool, scope: 'calendar:read', hints: read('Buscar huecos libres') },
  { tool: analyticsSummaryTool, scope: 'analytics:read', hints: read('Resumen de analítica') },
  {
    tool: createContactTool,
    scope: 'contacts:write',
    hints: { title: 'Crear un contacto', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  {
    tool: sendWhatsAppTool,
    scope: 'whatsapp:send',
    // A message cannot be unsent: not destructive of stored data, but it leaves for the outside world at once.
    hints: { title: 'Enviar un WhatsApp', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    tool: createEventTool,
    scope: 'calendar:write',
    hints: { title: 'Crear un evento', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
];

/** What a caller may use: a personal token, the tools its scopes cover; a session (no scopes), all of them. */
export function toolsFor(scopes: readonly PersonalTokenScope[] | undefined): McpTool[] {
  return MCP_TOOLS.filter((entry) => !scopes || scopes.includes(entry.scope));
}
