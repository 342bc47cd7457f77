import { AppError } from '@asistente/kit';
import { MailConnectError } from './mail-provider.js';
import type { LoginFailuresRepository } from './login-failures.repository.js';

/** Refused logins one user may cause through the account form in the window, whatever the server. */
export const FAILED_LOGINS_PER_USER = 10;
/** Refused logins to one server host in the window, all users together (one mailbox guessed from many accounts). */
export const FAILED_LOGINS_PER_HOST = 30;
export const FAILED_LOGINS_WINDOW_SECONDS = 15 * 60;

/**
 * The account form must not become a password-guessing service: every attempt reserves a row per user and
 * per host (in PostgreSQL, so the limit holds at N replicas and for attempts running at once); a refused
 * password keeps them, any other outcome gives them back. Beyond the limit: 429 with Retry-After, and no
 * connection is made.
 */
export class LoginAttempts {
  constructor(private readonly failures: LoginFailuresRepository) {}

  async limit<T>(userId: string, hosts: string[], attempt: () => Promise<T>): Promise<T> {
    const limits = [
      { key: `user:${userId}`, max: FAILED_LOGINS_PER_USER },
      ...hosts.map((host) => ({ key: `host:${host.trim().toLowerCase().replace(/\.$/, '')}`, max: FAILED_LOGINS_PER_HOST })),
    ];
    const reserved = await this.failures.reserve(limits, FAILED_LOGINS_WINDOW_SECONDS);
    if ('retryAfterSeconds' in reserved) throw tooManyFailures(reserved.retryAfterSeconds);
    try {
      const result = await attempt();
      await this.failures.release(reserved.ids);
      return result;
    } catch (error) {
      if (!(error instanceof MailConnectError && error.authFailed)) await this.failures.release(reserved.ids);
      throw error;
    }
  }
}

function tooManyFailures(seconds: number): AppError {
  const minutes = Math.ceil(seconds / 60);
  const error = new AppError(
    429,
    'MAIL_LOGIN_LIMIT',
    `Demasiados intentos fallidos de acceso al correo. Vuelve a intentarlo en ${minutes === 1 ? 'un minuto' : `${minutes} minutos`}`,
  );
  error.headers = { 'retry-after': String(seconds) };
  return error;
}
