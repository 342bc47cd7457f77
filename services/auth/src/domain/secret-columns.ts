// The auth service's columns that hold sealed secrets: the table and column are bound into the AAD of what
// it seals, and the list is registered at boot (app.ts) so that key rotation walks them.

import type { RegisteredSecretColumn } from '@asistente/kit';

/** A workspace invitation's link token, kept so the pending list can copy the link again. */
export const INVITATION_TOKEN_COLUMN = {
  table: 'auth.invitations',
  column: 'token_enc',
  idColumn: 'id',
  userIdColumn: 'workspace_id',
} as const satisfies RegisteredSecretColumn;

export const AUTH_SECRET_COLUMNS: readonly RegisteredSecretColumn[] = [INVITATION_TOKEN_COLUMN];
