// The ai service's columns that hold sealed secrets: the table and column are bound into the AAD of what
// it seals, and the list is registered at boot (app.ts) so that key rotation walks them.

import type { RegisteredSecretColumn } from '@asistente/kit';

/** The user's OpenAI API key. */
export const OPENAI_KEY_COLUMN = {
  table: 'ai.provider_keys',
  column: 'api_key_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

export const AI_SECRET_COLUMNS: readonly RegisteredSecretColumn[] = [OPENAI_KEY_COLUMN];
