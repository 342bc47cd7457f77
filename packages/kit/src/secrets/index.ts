// Secrets at rest: AES-256-GCM envelopes, the key ring they are sealed with, and batch key rotation.
export {
  SecretsConfigError,
  generateKey,
  loadOrCreateEmbeddedKeyring,
  parseKeyring,
  type Keyring,
  type SecretsLogger,
} from './keyring.js';
export { SecretBox, SecretDecryptError, type SecretContext } from './envelope.js';
export {
  rotateSecrets,
  verifySecrets,
  type FetchBatch,
  type RotateOptions,
  type RotationCounts,
  type RotationProgress,
  type SecretColumn,
  type SecretRow,
  type VerifyCounts,
  type VerifyOptions,
  type WriteRow,
} from './rotation.js';
export {
  CALDAV_PASSWORD_COLUMN,
  EMAIL_CREDENTIALS_COLUMN,
  GOOGLE_ACCESS_TOKEN_COLUMN,
  GOOGLE_REFRESH_TOKEN_COLUMN,
  MICROSOFT_ACCESS_TOKEN_COLUMN,
  MICROSOFT_REFRESH_TOKEN_COLUMN,
  OPENAI_KEY_COLUMN,
  SECRET_COLUMNS,
  WHATSAPP_AUTH_STATE_COLUMN,
  WHATSAPP_QR_COLUMN,
  WHATSAPP_CLOUD_TOKEN_COLUMN,
  WEBHOOK_SECRET_COLUMN,
  INVITATION_TOKEN_COLUMN,
  type RegisteredSecretColumn,
} from './columns.js';
export { sqlSecretStore, type SqlSecretStore } from './sql-store.js';
export { resolveSecretBox, type SecretsSettings } from './boot.js';
