// The teams service's columns that hold sealed secrets: the table and column are bound into the AAD of what
// it seals, and the list is registered at boot (app.ts) so that key rotation walks them.

import type { RegisteredSecretColumn } from '@asistente/kit';

/** A user's Microsoft 365 access token. */
export const MICROSOFT_ACCESS_TOKEN_COLUMN = {
  table: 'teams.connections',
  column: 'access_token_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** A user's Microsoft 365 refresh token. */
export const MICROSOFT_REFRESH_TOKEN_COLUMN = {
  table: 'teams.connections',
  column: 'refresh_token_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

export const TEAMS_SECRET_COLUMNS: readonly RegisteredSecretColumn[] = [MICROSOFT_ACCESS_TOKEN_COLUMN, MICROSOFT_REFRESH_TOKEN_COLUMN];
