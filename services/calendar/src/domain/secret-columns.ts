// The calendar service's columns that hold sealed secrets: the table and column are bound into the AAD of what
// it seals, and the list is registered at boot (app.ts) so that key rotation walks them.

import type { RegisteredSecretColumn } from '@asistente/kit';

/** The user's Google OAuth access token. */
export const GOOGLE_ACCESS_TOKEN_COLUMN = {
  table: 'calendar.google_accounts',
  column: 'access_token_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** The user's Google OAuth refresh token. */
export const GOOGLE_REFRESH_TOKEN_COLUMN = {
  table: 'calendar.google_accounts',
  column: 'refresh_token_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** A CalDAV account's app password. */
export const CALDAV_PASSWORD_COLUMN = {
  table: 'calendar.caldav_accounts',
  column: 'password_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

export const CALENDAR_SECRET_COLUMNS: readonly RegisteredSecretColumn[] = [GOOGLE_ACCESS_TOKEN_COLUMN, GOOGLE_REFRESH_TOKEN_COLUMN, CALDAV_PASSWORD_COLUMN];
