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
export { registerSecretColumns, registeredSecretColumns, type RegisteredSecretColumn } from './columns.js';
export { sqlSecretStore, type SqlSecretStore } from './sql-store.js';
export { resolveSecretBox, type SecretsSettings } from './boot.js';
