import {
  ChatHandles,
  ChatHandlesQuery,
  ConversationList,
  ConversationsQuery,
  MessageList,
  MessagesById,
  MessagesByIdQuery,
  MessagesQuery,
  SendMessageBody,
  WhatsAppMessage,
  WhatsAppStatus,
} from '../whatsapp.js';
import { route } from './route.js';

/** The WhatsApp service's routes other services call. */
export const whatsappRoutes = {
  status: route({ service: 'whatsapp', method: 'GET', path: '/whatsapp/status', response: WhatsAppStatus }),
  conversations: route({ service: 'whatsapp', method: 'GET', path: '/whatsapp/conversations', query: ConversationsQuery, response: ConversationList }),
  messages: route({ service: 'whatsapp', method: 'GET', path: '/whatsapp/messages', query: MessagesQuery, response: MessageList }),
  send: route({ service: 'whatsapp', method: 'POST', path: '/whatsapp/messages', body: SendMessageBody, response: WhatsAppMessage }),
  messagesById: route({ service: 'whatsapp', method: 'GET', path: '/whatsapp/messages/by-id', query: MessagesByIdQuery, response: MessagesById }),
  handles: route({ service: 'whatsapp', method: 'GET', path: '/whatsapp/handles', query: ChatHandlesQuery, response: ChatHandles }),
};
