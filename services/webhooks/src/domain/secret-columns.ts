// The webhooks service's columns that hold sealed secrets: the table and column are bound into the AAD of what
// it seals, and the list is registered at boot (app.ts) so that key rotation walks them.

import type { RegisteredSecretColumn } from '@asistente/kit';

/** An outbound webhook endpoint's signing secret. */
export const WEBHOOK_SECRET_COLUMN = {
  table: 'webhooks.endpoints',
  column: 'secret_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

export const WEBHOOKS_SECRET_COLUMNS: readonly RegisteredSecretColumn[] = [WEBHOOK_SECRET_COLUMN];
