import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../db/database.js';

/** How long a password reset link works after it was made. */
export const PASSWORD_RESET_TTL_MS = 30 * 60_000;

export interface PasswordResetLink {
  url: string;
  expiresAt: Date;
}

/** What is stored for a reset token: its SHA-256, so a read of the table cannot be turned into a working link. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Makes a single-use link to `PUBLIC_URL/restablecer` that sets a new password for `userId` within 30
 * minutes. Shared by the auth service (the mailed link) and the operator's `asistente admin reset-password`
 * (the printed one), so both make the same kind of token in the same table.
 */
export async function issuePasswordResetLink(sql: Sql, userId: string, publicUrl: string, now = new Date()): Promise<PasswordResetLink> {
  // 256 random bits: guessing one is hopeless, so the check needs no per-token attempt counter.
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
  await sql`
    insert into auth.password_resets (token_hash, user_id, expires_at)
    values (${hashResetToken(token)}, ${userId}, ${expiresAt})`;
  return { url: `${publicUrl.replace(/\/+$/, '')}/restablecer?token=${token}`, expiresAt };
}
