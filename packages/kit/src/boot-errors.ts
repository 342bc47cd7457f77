import { ConfigError } from './config.js';
import { DatabaseUnreachableError } from './db/database.js';
import { StreamOwnershipError } from './events/jetstream-bus.js';
import { SecretsConfigError } from './secrets/keyring.js';

/**
 * For a boot step's rejection: a configuration mistake the operator fixes in
 * the environment (a bad variable, a malformed or missing SECRETS_KEYS) prints
 * its one-line message and exits 1, no stack trace; anything else rethrows.
 */
export function exitOnConfigError(error: unknown): never {
  if (
    error instanceof ConfigError ||
    error instanceof SecretsConfigError ||
    error instanceof StreamOwnershipError ||
    error instanceof DatabaseUnreachableError
  ) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
