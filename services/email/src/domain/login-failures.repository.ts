import type { Sql, TransactionSql } from '@asistente/kit';

export interface FailureLimit {
  key: string;
  max: number;
}

/** `email.login_failures`: refused mail logins (and attempts in flight) per key, within a window. */
export class LoginFailuresRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * One transaction per attempt: the keys locked (in one order, so two attempts cannot deadlock), rows
   * older than the window dropped, and a row added for each key unless one of them is at its `max`.
   * Answers the rows added, or how many seconds until every key has room again.
   */
  reserve(limits: FailureLimit[], windowSeconds: number): Promise<{ ids: string[] } | { retryAfterSeconds: number }> {
    return this.sql.begin(async (tx) => {
      const sorted = [...new Map(limits.map((limit) => [limit.key, limit])).values()].sort((a, b) => (a.key < b.key ? -1 : 1));
      for (const { key } of sorted) await tx`select pg_advisory_xact_lock(hashtextextended(${`email.login_failures:${key}`}, 0))`;
      await tx`delete from email.login_failures where failed_at < now() - make_interval(secs => ${windowSeconds})`;
      const wait = await this.waitSeconds(tx, sorted, windowSeconds);
      if (wait > 0) return { retryAfterSeconds: wait };
      const rows = await tx<{ id: string }[]>`
        insert into email.login_failures (key) select unnest(${sorted.map((l) => l.key)}::text[]) returning id::text`;
      return { ids: rows.map((r) => r.id) };
    });
  }

  /** The account is erased: its per-user key (which names the user's id) goes with it. */
  async forgetUser(tx: TransactionSql, userId: string): Promise<void> {
    await tx`delete from email.login_failures where key = ${`user:${userId}`}`;
  }

  /** The attempt did not end in a refused login: it counts for nothing. */
  async release(ids: string[]): Promise<void> {
    await this.sql`delete from email.login_failures where id = any(${ids}::bigint[])`;
  }

  /** For each key at its max, when its max-th newest row leaves the window: the longest wait (0: room). */
  private async waitSeconds(tx: TransactionSql, limits: FailureLimit[], windowSeconds: number): Promise<number> {
    const [row] = await tx<{ wait: number | null }[]>`
      select max(ceil(extract(epoch from (nth.failed_at + make_interval(secs => ${windowSeconds}) - now()))))::int as wait
      from unnest(${limits.map((l) => l.key)}::text[], ${limits.map((l) => l.max)}::int[]) as k(key, max)
      cross join lateral (
        select failed_at from email.login_failures f where f.key = k.key
        order by failed_at desc offset k.max - 1 limit 1
      ) nth`;
    return Math.max(row?.wait ?? 0, 0);
  }
}
