// Which key ring a process seals secrets with, decided once at boot.

import { loadOrCreateEmbeddedKeyring, parseKeyring, generateKey, SecretsConfigError, type SecretsLogger } from './keyring.js';
import { SecretBox } from './envelope.js';

export interface SecretsSettings {
  /** SECRETS_KEYS, when set. */
  keys: string | undefined;
  /** Set in the distributed topology, where no process may invent a key of its own. */
  databaseUrl: string | undefined;
  dataDir: string;
}

/**
 * SECRETS_KEYS when configured (a malformed value throws SecretsConfigError). Otherwise, embedded: the key
 * ring kept in the data directory, or a throwaway key for an in-memory data directory (tests), whose data
 * dies with it anyway. Distributed without SECRETS_KEYS is refused: each replica would generate a different
 * key and none could read the others' secrets.
 */
export async function resolveSecretBox(settings: SecretsSettings, log: SecretsLogger): Promise<SecretBox> {
  if (settings.keys !== undefined) return new SecretBox(parseKeyring(settings.keys));
  if (settings.databaseUrl !== undefined) {
    throw new SecretsConfigError(
      'is required when DATABASE_URL is set (every service must seal and open secrets with the same keys); ' +
        'e.g. SECRETS_KEYS=k1:<output of `openssl rand -base64 32`>',
    );
  }
  if (settings.dataDir.startsWith('memory://')) return new SecretBox(parseKeyring(`memory:${generateKey()}`));
  return new SecretBox(await loadOrCreateEmbeddedKeyring(settings.dataDir, log));
}
