import { AppError, type Sql } from '@asistente/kit';

const WINDOW_SECONDS = 60;

/**
 * Calls per minute for a key (a visitor, an address), counted in PostgreSQL so every replica spends from
 * the same window; the database's clock decides when a minute ends. A spend over the limit spends nothing
 * and is refused with 429 and Retry-After.
 */
export class WidgetBudget {
  constructor(private readonly sql: Sql) {}

  async spend(workspaceId: string, key: string, perMinute: number, refusal: string): Promise<void> {
    const [row] = await this.sql<{ granted: boolean; resetSeconds: number }[]>`
      with spent as (
        insert into inbox.widget_budgets as b (key, user_id, window_started_at, used)
        values (${key}, ${workspaceId}, now(), 1)
        on conflict (key) do update set
          window_started_at = case when b.window_started_at <= now() - make_interval(secs => ${WINDOW_SECONDS}) then now() else b.window_started_at end,
          used = case when b.window_started_at <= now() - make_interval(secs => ${WINDOW_SECONDS}) then 1 else b.used + 1 end
        where b.window_started_at <= now() - make_interval(secs => ${WINDOW_SECONDS}) or b.used < ${perMinute}
        returning window_started_at
      )
      select true as granted, 0 as reset_seconds from spent
      union all
      select false, ceil(extract(epoch from window_started_at + make_interval(secs => ${WINDOW_SECONDS}) - now()))::int
      from inbox.widget_budgets where key = ${key} and not exists (select from spent)`;
    if (row?.granted !== false) return;
    const error = new AppError(429, 'WIDGET_RATE_LIMITED', refusal);
    error.headers = { 'retry-after': String(Math.max(1, row.resetSeconds)) };
    throw error;
  }
}
