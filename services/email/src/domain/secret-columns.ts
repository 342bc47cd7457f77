// The email service's columns that hold sealed secrets: the table and column are bound into the AAD of what
// it seals, and the list is registered at boot (app.ts) so that key rotation walks them.

import type { RegisteredSecretColumn } from '@asistente/kit';

/** A mailbox's passwords or OAuth tokens, one sealed JSON object. */
export const EMAIL_CREDENTIALS_COLUMN = {
  table: 'email.accounts',
  column: 'credentials_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

export const EMAIL_SECRET_COLUMNS: readonly RegisteredSecretColumn[] = [EMAIL_CREDENTIALS_COLUMN];
