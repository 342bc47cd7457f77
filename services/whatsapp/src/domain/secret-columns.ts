// The whatsapp service's columns that hold sealed secrets: the table and column are bound into the AAD of what
// it seals, and the list is registered at boot (app.ts) so that key rotation walks them.

import type { RegisteredSecretColumn } from '@asistente/kit';

/** Baileys' auth state, one sealed row per key. */
export const WHATSAPP_AUTH_STATE_COLUMN = {
  table: 'whatsapp.auth_state',
  column: 'value_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** The pairing QR of an account being linked; it carries the pairing's secret key. */
export const WHATSAPP_QR_COLUMN = {
  table: 'whatsapp.accounts',
  column: 'qr_enc',
  idColumn: 'user_id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** A workspace's WhatsApp Cloud API access token. */
export const WHATSAPP_CLOUD_TOKEN_COLUMN = {
  table: 'whatsapp.cloud_accounts',
  column: 'access_token_enc',
  idColumn: 'user_id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

export const WHATSAPP_SECRET_COLUMNS: readonly RegisteredSecretColumn[] = [WHATSAPP_AUTH_STATE_COLUMN, WHATSAPP_QR_COLUMN, WHATSAPP_CLOUD_TOKEN_COLUMN];
