import { badRequest, hashResetToken, issuePasswordResetLink, securityActivityEvent, type Outbox, type Platform, type Revocations, type SecurityClient, type Sql } from '@asistente/kit';
import type { ResetPasswordBody } from '@asistente/contracts';
import type { SystemMailer } from './system-mailer.js';
import type { PasswordHasher } from './passwords.js';
import type { PasswordResetsRepository } from './password-resets.repository.js';
import type { PersonalTokensRepository } from './personal-tokens.repository.js';
import { resetMail } from './reset-mail.js';
import { newPassword, normalizeEmail } from './rules.js';
import type { UsersRepository } from './users.repository.js';

export const LINK_USED = 'Este enlace para restablecer la contraseña ya se usó o no es válido. Pide uno nuevo.';
export const LINK_EXPIRED = 'Este enlace para restablecer la contraseña ha caducado (dura 30 minutos). Pide uno nuevo.';

export interface PasswordResetsDeps {
  sql: Sql;
  users: UsersRepository;
  resets: PasswordResetsRepository;
  hasher: PasswordHasher;
  outbox: Outbox;
  /** A reset revokes every personal token and ends every session: whoever got into the account keeps nothing. */
  tokens: PersonalTokensRepository;
  revocations: Revocations;
  /** Undefined without SMTP_URL: no link is mailed, the owner asks the administrator. */
  mailer: SystemMailer | undefined;
  publicUrl: string;
  log: Platform['log'];
}

/** Forgotten passwords: a mailed single-use link, then a new password set with it. */
export class PasswordResetsService {
  /** Mails on their way: the answer never waits for the SMTP server, shutdown does. */
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly deps: PasswordResetsDeps) {}

  get available(): boolean {
    return this.deps.mailer !== undefined;
  }

  /**
   * Mails a link when an account has the address; nothing otherwise. The caller answers the same either way,
   * and the mail goes out after the answer, so neither the SMTP server's pace nor its errors tell an
   * unknown address from a known one (what remains is one indexed insert).
   */
  async requestLink(email: string): Promise<void> {
    const { mailer, users, sql, publicUrl, log } = this.deps;
    if (!mailer) return;
    const user = await users.findByEmail(normalizeEmail(email));
    if (!user) return;
    const { url } = await issuePasswordResetLink(sql, user.id, publicUrl);
    const sent = mailer
      .send(resetMail(user.email, user.firstName, url))
      // The link is a secret: the log names the user, never the mail's content.
      .catch((error: unknown) => log.warn({ err: error, userId: user.id }, 'password reset mail not sent'))
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  /**
   * Sets the new password with a link's token and spends the link; in the same transaction every personal
   * token of the account is revoked (the log says how many) and every session ends. Returns whose password it was.
   */
  async reset(input: ResetPasswordBody, client: SecurityClient): Promise<string> {
    const { resets, users, hasher, sql, outbox, tokens, revocations } = this.deps;
    const tokenHash = hashResetToken(input.token);
    const link = await resets.find(tokenHash);
    if (!link || link.usedAt) throw badRequest(LINK_USED, 'RESET_LINK_USED');
    if (link.expiresAt.getTime() <= Date.now()) throw badRequest(LINK_EXPIRED, 'RESET_LINK_EXPIRED');
    const passwordHash = await hasher.hash(newPassword(input.newPassword));
    const userId = await sql.begin(async (tx) => {
      const claimed = await resets.claim(tx, tokenHash);
      if (!claimed) return undefined;
      await users.updatePasswordHash(claimed, passwordHash, tx);
      await resets.spendAllOf(tx, claimed);
      const revokedTokens = await tokens.deleteAllOf(tx, claimed);
      await outbox.append(tx, [securityActivityEvent(claimed, 'password.reset', client, { revokedTokens })]);
      await revocations.endOtherSessions(claimed, null, new Date(), tx);
      return claimed;
    });
    // Spent or expired between the read and the claim: another tab used it first.
    if (!userId) throw badRequest(LINK_USED, 'RESET_LINK_USED');
    return userId;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.sending]);
    this.deps.mailer?.close();
  }
}
