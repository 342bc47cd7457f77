// The registry of every database column that holds sealed secrets. The owning service seals with the same
// table and column names (they are bound into the AAD), and `asistente admin rotate-keys` walks this list,
// so a service adding a secret column adds it here and rotation covers it with no other change.

import type { SecretColumn } from './rotation.js';

export interface RegisteredSecretColumn extends SecretColumn {
  /** Primary key, used for keyset pages and the compare-and-set write. */
  readonly idColumn: string;
  /** The owner's id, which the AAD binds. */
  readonly userIdColumn: string;
}

/** The user's OpenAI API key (services/ai). */
export const OPENAI_KEY_COLUMN = {
  table: 'ai.provider_keys',
  column: 'api_key_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** Baileys' auth state, one sealed row per key (services/whatsapp). */
export const WHATSAPP_AUTH_STATE_COLUMN = {
  table: 'whatsapp.auth_state',
  column: 'value_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** The pairing QR of an account being linked (services/whatsapp); it carries the pairing's secret key. */
export const WHATSAPP_QR_COLUMN = {
  table: 'whatsapp.accounts',
  column: 'qr_enc',
  idColumn: 'user_id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** A workspace's WhatsApp Cloud API access token (services/whatsapp). */
export const WHATSAPP_CLOUD_TOKEN_COLUMN = {
  table: 'whatsapp.cloud_accounts',
  column: 'access_token_enc',
  idColumn: 'user_id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** The user's Google OAuth tokens (services/calendar). */
export const GOOGLE_ACCESS_TOKEN_COLUMN = {
  table: 'calendar.google_accounts',
  column: 'access_token_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

export const GOOGLE_REFRESH_TOKEN_COLUMN = {
  table: 'calendar.google_accounts',
  column: 'refresh_token_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** A CalDAV account's app password (services/calendar). */
export const CALDAV_PASSWORD_COLUMN = {
  table: 'calendar.caldav_accounts',
  column: 'password_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** A mailbox's passwords or OAuth tokens, one sealed JSON object (services/email). */
export const EMAIL_CREDENTIALS_COLUMN = {
  table: 'email.accounts',
  column: 'credentials_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** A user's Microsoft 365 access and refresh tokens (services/teams). */
export const MICROSOFT_ACCESS_TOKEN_COLUMN = {
  table: 'teams.connections',
  column: 'access_token_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

export const MICROSOFT_REFRESH_TOKEN_COLUMN = {
  table: 'teams.connections',
  column: 'refresh_token_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** An outbound webhook endpoint's signing secret (services/webhooks). */
export const WEBHOOK_SECRET_COLUMN = {
  table: 'webhooks.endpoints',
  column: 'secret_enc',
  idColumn: 'id',
  userIdColumn: 'user_id',
} as const satisfies RegisteredSecretColumn;

/** A workspace invitation's link token, kept so the pending list can copy the link again (services/auth). */
export const INVITATION_TOKEN_COLUMN = {
  table: 'auth.invitations',
  column: 'token_enc',
  idColumn: 'id',
  userIdColumn: 'workspace_id',
} as const satisfies RegisteredSecretColumn;

export const SECRET_COLUMNS: readonly RegisteredSecretColumn[] = [
  MICROSOFT_ACCESS_TOKEN_COLUMN,
  MICROSOFT_REFRESH_TOKEN_COLUMN,
  OPENAI_KEY_COLUMN,
  EMAIL_CREDENTIALS_COLUMN,
  GOOGLE_ACCESS_TOKEN_COLUMN,
  GOOGLE_REFRESH_TOKEN_COLUMN,
  CALDAV_PASSWORD_COLUMN,
  WHATSAPP_AUTH_STATE_COLUMN,
  WHATSAPP_QR_COLUMN,
  WHATSAPP_CLOUD_TOKEN_COLUMN,
  WEBHOOK_SECRET_COLUMN,
  INVITATION_TOKEN_COLUMN,
];
