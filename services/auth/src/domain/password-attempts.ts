import { AppError, type FailureWindow } from '@asistente/kit';

export interface PasswordLimits {
  /** Wrong passwords per account in the window, from any address. */
  perAccount: number;
  /** Wrong passwords per client address in the window, for any account. */
  perAddress: number;
  windowMs: number;
}

/** Who a password check is for: the account's address (its login name) and the client's address, if known. */
export interface PasswordCheckSubject {
  email: string;
  ip: string | null;
}

/**
 * One budget of wrong passwords for every place that checks one: the login, a password change and an
 * account deletion all count against the same rows (per account and per address, in PostgreSQL so the
 * limit holds at N replicas and for checks running at once). A check reserves its rows first; a wrong
 * password keeps them, a right one or a failure to check gives them back. Beyond the limit: 429 with
 * Retry-After, before any hash is computed.
 */
export class PasswordAttempts {
  constructor(
    /** `auth.password_failures`. */
    private readonly failures: FailureWindow,
    private readonly limits: PasswordLimits,
  ) {}

  /** Runs `verify` within the budget and answers what it answered. */
  async check(subject: PasswordCheckSubject, verify: () => Promise<boolean>): Promise<boolean> {
    const keys = [{ key: `account:${subject.email.trim().toLowerCase()}`, max: this.limits.perAccount }];
    if (subject.ip) keys.push({ key: `address:${subject.ip}`, max: this.limits.perAddress });
    const reserved = await this.failures.reserve(keys, this.limits.windowMs / 1000);
    if ('retryAfterSeconds' in reserved) throw tooManyAttempts(reserved.retryAfterSeconds);
    let right: boolean;
    try {
      right = await verify();
    } catch (error) {
      await this.failures.release(reserved.ids);
      throw error;
    }
    if (right) await this.failures.release(reserved.ids);
    return right;
  }
}

function tooManyAttempts(seconds: number): AppError {
  const error = new AppError(429, 'RATE_LIMITED', `Demasiados intentos. Vuelve a intentarlo en ${waitWords(seconds)}`);
  error.headers = { 'retry-after': String(seconds) };
  return error;
}

function waitWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? 'un segundo' : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'un minuto' : `${minutes} minutos`;
}
