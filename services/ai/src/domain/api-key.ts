import { OPENAI_KEY_PREFIX } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';

/** `sk-` then letters, digits, `_` and `-` (project keys look like `sk-proj-…`); long enough to be a real key. */
const OPENAI_KEY_SHAPE = /^sk-[A-Za-z0-9_-]{16,}$/;

/**
 * The key as it will be stored: trimmed (a pasted key often carries a newline) and shaped like an OpenAI key,
 * or a 400 in the words the key screen shows. Messages never repeat the value.
 */
export function normalizeOpenAiKey(raw: string): string {
  const key = raw.trim();
  if (key === '') throw badRequest('Ingresa tu API key', 'API_KEY_REQUIRED');
  if (!key.startsWith(OPENAI_KEY_PREFIX)) throw badRequest('La API key debe empezar por sk-', 'API_KEY_INVALID');
  if (!OPENAI_KEY_SHAPE.test(key)) {
    throw badRequest('La API key no tiene un formato válido: cópiala completa y sin espacios', 'API_KEY_INVALID');
  }
  return key;
}

/** The only part of a key ever shown or stored in clear. */
export function lastFour(key: string): string {
  return key.slice(-4);
}
