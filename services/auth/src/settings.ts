import { SIGN_IN_LIMIT_SETTINGS } from '@asistente/contracts';
import { defineSettings } from '@asistente/kit';
import { Type } from '@sinclair/typebox';

/** What auth reads from the environment, besides the platform's config. */
export const settings = defineSettings({
  SCRYPT_COST: Type.Integer({ minimum: 10, maximum: 20, default: 17 }),
  /** Password hashes computed at once (each holds ~128 MiB at cost 17) and how many more may wait; beyond, 503. */
  HASH_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  HASH_QUEUE_MAX: Type.Integer({ minimum: 0, maximum: 10_000, default: 32 }),
  ...SIGN_IN_LIMIT_SETTINGS,
  /**
   * The system mailer, for password reset links: `smtp://user:pass@host:587` (STARTTLS when the server offers
   * it) or `smtps://user:pass@host:465` (TLS). Unset: no mail is sent; the owner asks the administrator, who
   * runs `asistente admin reset-password EMAIL`.
   */
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  /** The sender of the system mailer's mail, e.g. `Mi Asistente.IA <no-reply@example.com>`. */
  MAIL_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
  /** People one workspace may hold, members and pending invitations together. */
  MAX_WORKSPACE_MEMBERS: Type.Integer({ minimum: 1, maximum: 10_000, default: 50 }),
});
