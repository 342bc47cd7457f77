import { type ConversationEntry, inboxRoutes } from '@asistente/contracts';
import { customerOf, integer, type ToolSource } from '../tool.js';

/** A thread's message as the model reads it: who wrote it (the customer or the business), what, when. */
function compactEntry(entry: ConversationEntry): Record<string, unknown> {
  return { de: entry.direction === 'outgoing' ? 'negocio' : 'cliente', texto: entry.text.slice(0, 1000), fecha: entry.at };
}

/** This customer's thread only, from the team inbox: the conversation comes from the run, never from an argument. */
export const customerChatSource: ToolSource = {
  name: 'conversation',
  isAvailable: async () => true,
  tools: [
    {
      name: 'leer_mensajes_del_chat',
      description: 'Lee los mensajes recientes de esta conversación con el cliente. Solo lectura.',
      parameters: { type: 'object', properties: { limite: { type: 'integer', minimum: 1, maximum: 50 } }, additionalProperties: false },
      run: async (context, args) => {
        const { conversationId } = customerOf(context);
        const latest = integer(args, 'limite', 1, 50, 20);
        if (!conversationId) return { result: { mensajes: [] }, summary: 'Esta conversación aún no tiene mensajes' };
        const answer = await context.services.call(inboxRoutes.excerpt, context.caller, { params: { id: conversationId },  query: { latest } });
        // Notes are the team's own: never shown to a run that speaks to the customer.
        const messages = answer.entries.filter((entry) => entry.kind === 'message').map(compactEntry);
        return { result: { mensajes: messages }, summary: `Leyó ${messages.length} mensajes de esta conversación` };
      },
    },
  ],
};
