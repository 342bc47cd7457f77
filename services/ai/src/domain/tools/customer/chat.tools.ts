import { MessageList } from '@asistente/contracts';
import { compactMessage, whatsappSource } from '../whatsapp.tools.js';
import { customerOf, integer, type ToolSource } from '../tool.js';

/** This chat's history only: the chat comes from the run, never from an argument. */
export const customerChatSource: ToolSource = {
  name: whatsappSource.name,
  isAvailable: whatsappSource.isAvailable,
  tools: [
    {
      name: 'leer_mensajes_del_chat',
      description: 'Lee los mensajes recientes de este chat de WhatsApp con el cliente. Solo lectura.',
      parameters: { type: 'object', properties: { limite: { type: 'integer', minimum: 1, maximum: 50 } }, additionalProperties: false },
      run: async (context, args) => {
        const { jid } = customerOf(context);
        const limit = integer(args, 'limite', 1, 50, 20);
        const answer = await context.services.call('whatsapp', context.caller, '/whatsapp/messages', MessageList, { query: { jid, limit } });
        const messages = answer.data.map(compactMessage);
        return { result: { mensajes: messages }, summary: `Leyó ${messages.length} mensajes de este chat` };
      },
    },
  ],
};
