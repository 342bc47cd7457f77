import type { Sql } from '../db/database.js';

/**
 * Revoked token ids live in `platform.revoked_tokens`, the one table every
 * service may read: a token signed by auth must stop working everywhere the
 * moment its owner logs out. Rows expire with the token they name.
 */
export class Revocations {
  constructor(private readonly sql: Sql) {}

  async revoke(jti: string, userId: string, expiresAt: Date): Promise<void> {
    await this.sql`
      insert into platform.revoked_tokens (jti, user_id, expires_at)
      values (${jti}, ${userId}, ${expiresAt}) on conflict (jti) do nothing`;
    await this.sql`delete from platform.revoked_tokens where expires_at < now()`;
  }

  async isRevoked(jti: string): Promise<boolean> {
    const rows = await this.sql`select 1 from platform.revoked_tokens where jti = ${jti}`;
    return rows.length > 0;
  }
}
