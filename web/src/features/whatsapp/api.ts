import {
  roleAllows,
  type CloudConnectBody,
  type CloudConnectResult,
  type CloudTemplate,
  type CloudTemplateList,
  type CloudWindow,
  type AutoReply,
  type AutoReplyList,
  type ConversationList,
  type MessageList,
  type SyncContactsResult,
  type WhatsAppConnectResult,
  type WhatsAppHealth,
  type WhatsAppMessage,
  type WhatsAppStats,
  type WhatsAppStatus,
  type WorkspaceRole,
} from '@asistente/contracts';
import { getJson, sendDelete, sendJson } from '../../lib/http';

export type { CloudTemplate };
export type { AutoReply, WhatsAppConnectResult, WhatsAppHealth, WhatsAppMessage, WhatsAppStats, WhatsAppStatus };
export type Conversation = ConversationList['data'][number];

export const getStatus = () => getJson<WhatsAppStatus>('whatsapp/status');
export const getHealth = () => getJson<WhatsAppHealth>('whatsapp/health-panel');
export const connect = () => sendJson<WhatsAppConnectResult>('post', 'whatsapp/connect', {});
export const disconnect = () => sendJson<{ success: boolean }>('post', 'whatsapp/disconnect', {});
export const resetSession = () => sendJson<WhatsAppConnectResult & { success: boolean }>('post', 'whatsapp/logout', {});
export const syncContacts = () => sendJson<SyncContactsResult>('post', 'whatsapp/sync-contacts', {});
export const getStats = () => getJson<WhatsAppStats>('whatsapp/stats');

export const getConversations = (page: number, limit: number, search: string) =>
  getJson<ConversationList>('whatsapp/conversations', { searchParams: { page, limit, ...(search ? { search } : {}) } });

export const getMessages = (jid: string, page: number, limit: number) =>
  getJson<MessageList>('whatsapp/messages', { searchParams: { jid, page, limit } });

export const sendText = (jid: string, text: string) => sendJson<WhatsAppMessage>('post', 'whatsapp/messages', { jid, type: 'text', text });

/** The official Cloud API's number: connected with the three values of Meta's dashboard. */
export const connectCloud = (body: CloudConnectBody) => sendJson<CloudConnectResult>('post', 'whatsapp/cloud/connect', body);
export const disconnectCloud = () => sendJson<{ success: boolean }>('post', 'whatsapp/cloud/disconnect', {});
export const getWindow = (jid: string) => getJson<CloudWindow>(`whatsapp/cloud/window?jid=${encodeURIComponent(jid)}`);
export const getTemplates = () => getJson<CloudTemplateList>('whatsapp/cloud/templates').then((answer) => answer.data);
export const sendTemplate = (jid: string, template: CloudTemplate, variables: string[]) =>
  sendJson<WhatsAppMessage>('post', 'whatsapp/cloud/templates/send', { jid, name: template.name, language: template.language, variables });

/** The refusal of free text once the customer's 24-hour window has closed: the send box then offers templates. */
export const WINDOW_CLOSED_CODE = 'WHATSAPP_CLOUD_WINDOW_CLOSED';

export const getAutoReplies = () => getJson<AutoReplyList>('whatsapp/auto-replies').then((answer) => answer.data);

/** The spec allows a create that answers only an id: the caller completes the record from what it sent. */
export const createAutoReply = (body: { keyword: string; response: string; active: boolean }) =>
  sendJson<Partial<AutoReply> & { id: string }>('post', 'whatsapp/auto-replies', body);

export const updateAutoReply = (id: string, body: { active: boolean }) => sendJson<AutoReply>('patch', `whatsapp/auto-replies/${id}`, body);

export const deleteAutoReply = (id: string) => sendDelete(`whatsapp/auto-replies/${id}`);

/** What a role may do on this screen beyond reading and chatting: the contracts' role table, asked with the calls above. */
export function whatsappPermissions(role: WorkspaceRole) {
  return {
    connect: roleAllows(role, 'POST', '/whatsapp/connect'),
    disconnect: roleAllows(role, 'POST', '/whatsapp/disconnect'),
    resetSession: roleAllows(role, 'POST', '/whatsapp/logout'),
    connectCloud: roleAllows(role, 'POST', '/whatsapp/cloud/connect'),
    disconnectCloud: roleAllows(role, 'POST', '/whatsapp/cloud/disconnect'),
    editAutoReplies:
      roleAllows(role, 'POST', '/whatsapp/auto-replies') &&
      roleAllows(role, 'PATCH', '/whatsapp/auto-replies/:id') &&
      roleAllows(role, 'DELETE', '/whatsapp/auto-replies/:id'),
  };
}

export type WhatsAppPermissions = ReturnType<typeof whatsappPermissions>;
