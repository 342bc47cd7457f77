import { Type } from '@sinclair/typebox';

/**
 * Sign-in and password reset limits: auth counts them per account and address, the gateway per client
 * address (a multiple of them), so both read the same variables from this one definition.
 */
export const SIGN_IN_LIMIT_SETTINGS = {
  RATE_LIMIT_LOGIN_MAX: Type.Integer({ minimum: 1, default: 10 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  /** Password reset requests per address per window (one reset mail each); the gateway allows 5x per client address. */
  RATE_LIMIT_PASSWORD_RESET_MAX: Type.Integer({ minimum: 1, default: 5 }),
  RATE_LIMIT_PASSWORD_RESET_WINDOW_MS: Type.Integer({ minimum: 1000, default: 3_600_000 }),
};
