import type { Sql, TransactionSql } from '@asistente/kit';

export interface ResetLinkRow {
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** `auth.password_resets`: links are made by the kit's issuePasswordResetLink; here they are read and spent. */
export class PasswordResetsRepository {
  constructor(private readonly sql: Sql) {}

  async find(tokenHash: string): Promise<ResetLinkRow | undefined> {
    const [row] = await this.sql<ResetLinkRow[]>`
      select user_id, expires_at, used_at from auth.password_resets where token_hash = ${tokenHash}`;
    return row;
  }

  /** Spends the link if it still works, atomically: of two uses at once, one gets the user id. */
  async claim(tx: TransactionSql, tokenHash: string): Promise<string | undefined> {
    const [row] = await tx<{ userId: string }[]>`
      update auth.password_resets set used_at = now()
      where token_hash = ${tokenHash} and used_at is null and expires_at > now()
      returning user_id`;
    return row?.userId;
  }

  /** After a reset every other link of the user stops working too, and old rows go. */
  async spendAllOf(tx: TransactionSql, userId: string): Promise<void> {
    await tx`update auth.password_resets set used_at = now() where user_id = ${userId} and used_at is null`;
    await tx`delete from auth.password_resets where expires_at < now() - interval '1 day'`;
  }
}
