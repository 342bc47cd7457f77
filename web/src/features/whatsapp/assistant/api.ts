import { roleAllows, type AiChatState, type AiRunBody, type AiRunResult, type AiUsageToday, type AssistantConfig, type WorkspaceRole } from '@asistente/contracts';
import { getJson, sendJson } from '../../../lib/http';

export const getAssistantConfig = () => getJson<{ data: AssistantConfig }>('ai/assistant').then((answer) => answer.data);

export const saveAssistantConfig = (config: AssistantConfig) =>
  sendJson<{ success?: unknown; data: AssistantConfig }>('put', 'ai/assistant', config).then((answer) => answer.data);

/** Whether a role may save the configuration (the role table's rule for the PUT above); every member may read it. */
export const mayEditAssistant = (role: WorkspaceRole) => roleAllows(role, 'PUT', '/ai/assistant');

export const runAssistant = (body: AiRunBody) => sendJson<AiRunResult>('post', 'ai/run', body);

const chatPath = (jid: string) => `ai/chats/${encodeURIComponent(jid)}`;

export const getChatState = (jid: string) => getJson<AiChatState>(chatPath(jid));

export const setChatPaused = (jid: string, paused: boolean) => sendJson<AiChatState>('put', `${chatPath(jid)}/pause`, { paused });

export const getUsageToday = () => getJson<AiUsageToday>('ai/usage/today');
