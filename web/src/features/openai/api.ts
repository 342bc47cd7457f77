import type { OpenAiKeyStatus } from '@asistente/contracts';
import { getJson, sendDelete, sendJson } from '../../lib/http';

export type KeyStatus = OpenAiKeyStatus;

const PATH = 'ai/provider/openai/key';

export const NO_KEY: KeyStatus = { exists: false, last4: null };

export const getKeyStatus = () => getJson<KeyStatus>(PATH);

/** Typed loosely on purpose: the answer is checked for `success: true` rather than trusted. */
export const saveKey = (apiKey: string) => sendJson<{ success?: unknown }>('put', PATH, { apiKey });

export const deleteKey = () => sendDelete(PATH);
