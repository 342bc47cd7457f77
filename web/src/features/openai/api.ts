import { roleAllows, type OpenAiKeyStatus, type WorkspaceRole } from '@asistente/contracts';
import { getJson, sendDelete, sendJson } from '../../lib/http';

export type KeyStatus = OpenAiKeyStatus;

const PATH = 'ai/provider/openai/key';

export const NO_KEY: KeyStatus = { exists: false, last4: null };

export const getKeyStatus = () => getJson<KeyStatus>(PATH);

/** Typed loosely on purpose: the answer is checked for `success: true` rather than trusted. */
export const saveKey = (apiKey: string) => sendJson<{ success?: unknown }>('put', PATH, { apiKey });

export const deleteKey = () => sendDelete(PATH);

/** What a role may do with the workspace's key: the role table, asked with the calls above (reading is everyone's). */
export const keyPermissions = (role: WorkspaceRole) => ({
  save: roleAllows(role, 'PUT', `/${PATH}`),
  remove: roleAllows(role, 'DELETE', `/${PATH}`),
});
