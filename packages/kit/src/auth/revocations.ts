import type { Database, Sql } from '../db/database.js';

/**
 * Revoked token ids live in `platform.revoked_tokens`, the one table every
 * service may read: a token signed by auth must stop working everywhere the
 * moment its owner logs out. Rows expire with the token they name.
 */
export class Revocations {
  constructor(private readonly sql: Sql) {}

  /**
   * The embedded database belongs to a single process, so every logout goes
   * through it: the revoked ids it loads once and then records itself are the
   * whole truth, and a request needs no query to check its token.
   */
  static async for(db: Database): Promise<Revocations> {
    if (db.kind !== 'pglite') return new Revocations(db.sql);
    const rows = await db.sql<{ jti: string; expiresAt: Date }[]>`
      select jti, expires_at from platform.revoked_tokens where expires_at > now()`;
    return new LocalRevocations(db.sql, new Map(rows.map((r) => [r.jti, r.expiresAt.getTime()])));
  }

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

class LocalRevocations extends Revocations {
  constructor(
    sql: Sql,
    private readonly revoked: Map<string, number>,
  ) {
    super(sql);
  }

  override async revoke(jti: string, userId: string, expiresAt: Date): Promise<void> {
    await super.revoke(jti, userId, expiresAt);
    const now = Date.now();
    for (const [id, expires] of this.revoked) if (expires < now) this.revoked.delete(id);
    this.revoked.set(jti, expiresAt.getTime());
  }

  override async isRevoked(jti: string): Promise<boolean> {
    return this.revoked.has(jti);
  }
}
