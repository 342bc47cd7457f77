import { ConfigError, type Config } from './config.js';

/** Values published in this repository (docker-compose fallbacks, examples): never real secrets. */
const PUBLIC_VALUES = [/dev-only/i, /do-not-use/i, /change-?me/i, /replace_?me/i, /ZGV2LW9ubHktc2VjcmV0cy1rZXktZG8tbm90LXVzZSE=/];

/**
 * Outside embedded mode (DATABASE_URL set) every process must share the operator's secrets: a service
 * that invented its own JWT secret would refuse every token, and the development values written in this
 * repository protect nothing. Either stops the boot with one line naming the variable.
 */
export function assertProductionSecrets(config: Pick<Config, 'DATABASE_URL' | 'JWT_SECRET' | 'SECRETS_KEYS'>): void {
  if (!config.DATABASE_URL) return;
  if (!config.JWT_SECRET) {
    throw new ConfigError(
      'JWT_SECRET',
      'is required when DATABASE_URL is set (every service must verify tokens with the same secret); e.g. JWT_SECRET=$(openssl rand -base64 48)',
    );
  }
  for (const variable of ['JWT_SECRET', 'SECRETS_KEYS'] as const) {
    const value = config[variable];
    if (value && PUBLIC_VALUES.some((pattern) => pattern.test(value))) {
      throw new ConfigError(variable, 'holds a development value published in the repository: generate a real one');
    }
  }
}
