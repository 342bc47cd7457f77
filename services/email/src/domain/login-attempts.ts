import { createHash } from 'node:crypto';
import { AppError, type FailureWindow } from '@asistente/kit';
import { MailConnectError } from './mail-errors.js';
import type { ServerSettings } from './account.js';

/** Refused logins one user may cause through the account form in the window, whatever the server. */
export const FAILED_LOGINS_PER_USER = 10;
/**
 * Refused logins to one mailbox (server host and username together) in the window, all users together: a
 * mailbox guessed from many accounts. Twice a user's limit, so one account alone (a colleague mistyping a
 * shared mailbox's password) never locks that mailbox for the others.
 */
export const FAILED_LOGINS_PER_MAILBOX = 2 * FAILED_LOGINS_PER_USER;
export const FAILED_LOGINS_WINDOW_SECONDS = 15 * 60;

/** The mailbox a login targets: who is guessed at, not merely which server. */
export type TargetMailbox = Pick<ServerSettings, 'host' | 'user'>;

/**
 * The key of a mailbox's count. Spellings a server treats as one (case, a trailing dot on the host, spaces
 * around the username) count as one. Hashed, so the table never holds a mailbox's address in clear.
 */
export function mailboxKey({ host, user }: TargetMailbox): string {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  const digest = createHash('sha256').update(`${name}\0${user.trim().toLowerCase()}`).digest('base64url');
  return `mailbox:${digest}`;
}

/**
 * The account form must not become a password-guessing service: every attempt reserves a row per user and
 * per target mailbox (in PostgreSQL, so the limit holds at N replicas and for attempts running at once); a
 * refused password keeps them, any other outcome gives them back. Never per host alone: one tenant's guesses
 * must not close a shared server (imap.gmail.com) to every other tenant's mailbox. Beyond a limit: 429 with
 * Retry-After, and no connection is made.
 */
export class LoginAttempts {
  /** `email.login_failures`. */
  constructor(private readonly failures: FailureWindow) {}

  async limit<T>(userId: string, mailboxes: TargetMailbox[], attempt: () => Promise<T>): Promise<T> {
    const limits = [
      { key: `user:${userId}`, max: FAILED_LOGINS_PER_USER },
      ...mailboxes.map((mailbox) => ({ key: mailboxKey(mailbox), max: FAILED_LOGINS_PER_MAILBOX })),
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
