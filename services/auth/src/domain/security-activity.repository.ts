import type { SecurityActivityDetail, SecurityActivityEntry, SecurityActivityEventData, SecurityActivityType } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

export interface SecurityActivityRecord {
  id: string;
  userId: string;
  at: string;
  data: SecurityActivityEventData;
}

interface ActivityRow {
  id: string;
  type: SecurityActivityType;
  at: Date;
  ip: string | null;
  userAgent: string | null;
  detail: SecurityActivityDetail;
  actorId: string | null;
  actorName: string | null;
}

/** auth.security_activity: one row per event id, read newest first per user. */
export class SecurityActivityRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Writes the records not written yet; returns how many were new. A redelivered event id changes nothing,
   * and an event of a user that no longer exists is dropped (its account is gone, so is its log).
   */
  async record(tx: TransactionSql, records: SecurityActivityRecord[]): Promise<number> {
    let written = 0;
    for (const r of records) {
      const result = await tx`
        insert into auth.security_activity (id, user_id, type, at, ip, user_agent, detail, actor_id, actor_name)
        select ${r.id}, u.id, ${r.data.activity}, ${r.at}, ${r.data.ip}, ${r.data.userAgent}, ${tx.json(r.data.detail as never)},
               actor.id, btrim(actor.first_name || ' ' || actor.last_name)
        from auth.users u left join auth.users actor on actor.id = ${r.data.actorId ?? null}
        where u.id = ${r.userId}
        on conflict (id) do nothing`;
      written += result.count;
    }
    return written;
  }

  async page(userId: string, page: number, limit: number): Promise<{ rows: SecurityActivityEntry[]; total: number }> {
    const [counted] = await this.sql<{ n: string }[]>`select count(*) as n from auth.security_activity where user_id = ${userId}`;
    const rows = await this.sql<ActivityRow[]>`
      select id, type, at, ip, user_agent, detail, actor_id, actor_name from auth.security_activity
      where user_id = ${userId}
      order by at desc, id desc
      limit ${limit} offset ${(page - 1) * limit}`;
    return {
      total: Number(counted?.n ?? 0),
      rows: rows.map((r) => ({
        id: r.id,
        type: r.type,
        at: r.at.toISOString(),
        ip: r.ip,
        userAgent: r.userAgent,
        detail: r.detail,
        actor: r.actorId && r.actorName ? { userId: r.actorId, name: r.actorName } : null,
      })),
    };
  }

  /**
   * Deletes up to `batch` rows older than `before`, in one short transaction, when no other replica is purging
   * (a transaction-scoped advisory lock: released at commit, never left behind by a dead process). Returns the
   * rows deleted, or null when another replica holds the lock.
   */
  async purgeBatch(before: Date, batch: number): Promise<number | null> {
    return this.sql.begin(async (tx) => {
      const [lock] = await tx<{ locked: boolean }[]>`select pg_try_advisory_xact_lock(hashtextextended('auth.security_activity.purge', 0)) as locked`;
      if (!lock?.locked) return null;
      const result = await tx`
        delete from auth.security_activity
        where ctid in (select ctid from auth.security_activity where at < ${before} limit ${batch})`;
      return result.count;
    });
  }
}
