import type { Sql, TransactionSql } from './database.js';

export interface FailureLimit {
  key: string;
  max: number;
}

/**
 * Failures (and checks in flight) per key within a sliding window, counted in a table of the service's own
 * schema (`id bigserial`, `key text`, `failed_at timestamptz default now()`), so every replica shares the
 * count: a wrong password, a refused mail login. A check reserves its rows first and gives them back when it
 * did not fail, so checks running at once cannot all pass a limit that has one place left.
 */
export class FailureWindow {
  constructor(
    private readonly sql: Sql,
    /** `schema.table`, the service's own. */
    private readonly table: string,
  ) {}

  /**
   * One transaction per check: the keys locked (in one order, so two checks cannot deadlock), rows older
   * than the window dropped, and a row added for each key unless one of them is at its `max`. Answers the
   * rows added, or how many seconds until every key has room again.
   */
  reserve(limits: FailureLimit[], windowSeconds: number): Promise<{ ids: string[] } | { retryAfterSeconds: number }> {
    const table = this.sql(this.table);
    return this.sql.begin(async (tx) => {
      const sorted = [...new Map(limits.map((limit) => [limit.key, limit])).values()].sort((a, b) => (a.key < b.key ? -1 : 1));
      for (const { key } of sorted) await tx`select pg_advisory_xact_lock(hashtextextended(${`${this.table}:${key}`}, 0))`;
      await tx`delete from ${table} where failed_at < now() - make_interval(secs => ${windowSeconds})`;
      const wait = await this.waitSeconds(tx, sorted, windowSeconds);
      if (wait > 0) return { retryAfterSeconds: wait };
      const rows = await tx<{ id: string }[]>`insert into ${table} (key) select unnest(${sorted.map((l) => l.key)}::text[]) returning id::text`;
      return { ids: rows.map((r) => r.id) };
    });
  }

  /** The check did not fail (a right password, a login that was not refused): it counts for nothing. */
  async release(ids: string[]): Promise<void> {
    await this.sql`delete from ${this.sql(this.table)} where id = any(${ids}::bigint[])`;
  }

  /** A key's failures go (its account is erased and the key names it). */
  async forget(tx: TransactionSql, key: string): Promise<void> {
    await tx`delete from ${this.sql(this.table)} where key = ${key}`;
  }

  /** For each key at its max, when its max-th newest row leaves the window: the longest wait (0: room). */
  private async waitSeconds(tx: TransactionSql, limits: FailureLimit[], windowSeconds: number): Promise<number> {
    const [row] = await tx<{ wait: number | null }[]>`
      select max(ceil(extract(epoch from (nth.failed_at + make_interval(secs => ${windowSeconds}) - now()))))::int as wait
      from unnest(${limits.map((l) => l.key)}::text[], ${limits.map((l) => l.max)}::int[]) as k(key, max)
      cross join lateral (
        select failed_at from ${this.sql(this.table)} f where f.key = k.key
        order by failed_at desc offset k.max - 1 limit 1
      ) nth`;
    return Math.max(row?.wait ?? 0, 0);
  }
}
