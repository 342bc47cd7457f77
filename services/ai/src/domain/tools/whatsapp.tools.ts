import { createHash } from 'node:crypto';
import { type SendMessageBody, WhatsAppMessage, whatsappRoutes } from '@asistente/contracts';
import { integer, moreHint, nextPage, page, pageProperties, text, type AssistantTool, type ToolSource } from './tool.js';

/** The fields of a message the model needs, from the WhatsApp contract's message. */
export function compactMessage(m: WhatsAppMessage): Record<string, unknown> {
  return { de: m.type === 'outgoing' ? 'negocio' : 'cliente', texto: m.message.slice(0, 1000), fecha: m.timestamp };
}

export const whatsappSource: ToolSource = {
  name: 'whatsapp',
  isAvailable: async ({ services, caller }) => (await services.call(whatsappRoutes.status, caller)).connected,
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
      run: async ({ services, caller }, args) => {
        const jid = text(args, 'jid', 200);
        if (!jid) return { result: { error: 'Indica el chat (jid)' }, summary: 'Pidió mensajes sin indicar el chat' };
        const limit = integer(args, 'limite', 1, 50, 20);
        const answer = await services.call(whatsappRoutes.messages, caller, { query: { jid, limit } });
        const messages = answer.data.map(compactMessage);
        const more = answer.pagination.total > messages.length;
        return {
          result: { mensajes: messages, total: answer.pagination.total, hayMas: more },
          summary: `Leyó ${messages.length} mensajes de WhatsApp del chat ${jid.split('@')[0]}${more ? '; hay más' : ''}`,
        };
      },
    },
  ],
};

/** The owner's WhatsApp chats, most recent first, by pages (the id of each is what leer_mensajes_whatsapp reads). */
export const listChatsTool: AssistantTool = {
  name: 'listar_chats_whatsapp',
  description: 'Lista los chats de WhatsApp del negocio, los más recientes primero, por páginas; opcionalmente filtra por nombre o teléfono. Solo lectura.',
  parameters: {
    type: 'object',
    properties: { texto: { type: 'string', maxLength: 100, description: 'Nombre o teléfono a buscar' }, ...pageProperties(50) },
    additionalProperties: false,
  },
  run: async ({ services, caller }, args) => {
    const search = text(args, 'texto', 100);
    const paging = page(args, 50, 20);
    const list = await services.call(whatsappRoutes.conversations, caller, { query: { ...paging, search } });
    const next = nextPage(list.pagination.total, paging);
    const chats = list.data.map((chat) => ({
      jid: chat.id,
      nombre: chat.name,
      telefono: chat.phone,
      grupo: chat.isGroup,
      ultimoMensaje: chat.lastMessage ? { de: chat.lastMessage.direction === 'outgoing' ? 'negocio' : 'cliente', texto: chat.lastMessage.text.slice(0, 200) } : null,
      fecha: chat.lastAt,
      sinLeer: chat.unread,
    }));
    return {
      result: { total: list.pagination.total, pagina: paging.page, chats, hayMas: next !== undefined, ...(next ? { siguientePagina: next } : {}) },
      summary: `Listó los chats de WhatsApp: ${list.pagination.total} en total${moreHint(next)}`,
    };
  },
};

/**
 * The send's `clientMessageId` for a call a client may retry: a UUID derived from the user, the call's key and
 * what is sent, so the retry gets the message already queued (WhatsApp keeps the id in PostgreSQL, any replica
 * sees it) while a different message under a reused request id is still sent.
 */
export function sendKey(workspaceId: string, callKey: string, recipient: string, message: string): string {
  const hex = createHash('sha256').update(JSON.stringify([workspaceId, callKey, recipient, message])).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Sends a text from the owner's WhatsApp (a personal token with whatsapp:send); the service queues and delivers it. */
export const sendWhatsAppTool: AssistantTool = {
  name: 'enviar_whatsapp',
  description: 'Envía un mensaje de texto de WhatsApp desde la cuenta del negocio a un chat (jid) o a un número de teléfono.',
  parameters: {
    type: 'object',
    properties: {
      jid: { type: 'string', maxLength: 200, description: 'Id del chat (el que devuelve listar_chats_whatsapp)' },
      telefono: { type: 'string', maxLength: 40, description: 'Número con prefijo de país, si no se da el jid' },
      texto: { type: 'string', minLength: 1, maxLength: 4096 },
    },
    required: ['texto'],
    additionalProperties: false,
  },
  run: async ({ services, caller, workspaceId, callKey }, args) => {
    const jid = text(args, 'jid', 200);
    const phoneNumber = text(args, 'telefono', 40);
    const message = text(args, 'texto', 4096);
    if (!jid && !phoneNumber) return { result: { error: 'Indica el chat (jid) o el teléfono' }, summary: 'Pidió enviar un WhatsApp sin destinatario' };
    if (!message) return { result: { error: 'Escribe un mensaje' }, summary: 'Pidió enviar un WhatsApp vacío' };
    // The WhatsApp service's own body (its contract), so a change there is a change here.
    const body: SendMessageBody = {
      ...(jid ? { jid } : { phoneNumber }),
      type: 'text',
      text: message,
      origin: 'app',
      ...(callKey ? { clientMessageId: sendKey(workspaceId, callKey, jid ?? phoneNumber ?? '', message) } : {}),
    };
    const sent = await services.call(whatsappRoutes.send, caller, { body });
    return { result: { enviado: { id: sent.id, chat: sent.chatId, estado: sent.status, fecha: sent.timestamp } }, summary: `Envió un WhatsApp al chat ${sent.chatId.split('@')[0]}` };
  },
};
