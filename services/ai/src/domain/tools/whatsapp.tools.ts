import type { MessageList, WhatsAppMessage } from '@asistente/contracts';
import { integer, saysConnected, text, type ToolSource } from './tool.js';

/** The fields of a message the model needs, from the WhatsApp contract's message. */
export function compactMessage(m: WhatsAppMessage): Record<string, unknown> {
  return { de: m.type === 'outgoing' ? 'negocio' : 'cliente', texto: m.message.slice(0, 1000), fecha: m.timestamp };
}

export const whatsappSource: ToolSource = {
  name: 'whatsapp',
  isAvailable: async ({ services, userId }) => saysConnected(await services.request('whatsapp', userId, '/whatsapp/status')),
  tools: [
    {
      name: 'leer_mensajes_whatsapp',
      description: 'Lee los mensajes recientes de un chat de WhatsApp del negocio. Solo lectura.',
      parameters: {
        type: 'object',
        properties: {
          jid: { type: 'string', description: 'Id del chat' },
          limite: { type: 'integer', minimum: 1, maximum: 50 },
        },
        additionalProperties: false,
      },
      run: async ({ services, userId }, args) => {
        const jid = text(args, 'jid', 200);
        if (!jid) return { result: { error: 'Indica el chat (jid)' }, summary: 'Pidió mensajes sin indicar el chat' };
        const limit = integer(args, 'limite', 1, 50, 20);
        const answer = await services.request<MessageList>('whatsapp', userId, '/whatsapp/messages', { query: { jid, limit } });
        const messages = answer.data.map(compactMessage);
        return { result: { mensajes: messages }, summary: `Leyó ${messages.length} mensajes de WhatsApp del chat ${jid.split('@')[0]}` };
      },
    },
  ],
};

