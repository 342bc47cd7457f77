import type { DomainEvent } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';
import type { Metric } from './metrics.js';
import type { ChatSeen, Counter } from './tally.js';

/** A window of whole local days: [startDay, today] in `tz`. */
export interface DayWindow {
  tz: string;
  startDay: string;
  today: string;
}

export interface RecentEvent {
  id: string;
  type: string;
  occurredAt: Date;
  data: unknown;
}

/**
 * What events carry for the webhooks' receivers alone (a person's details, a message's text and sender), by
 * type: analytics counts without them and keeps no copy, which would outlive the owner's retention. (Other
 * types' fields of the same names, such as a status change's `from`, are kept.)
 */
const MESSAGE_FIELDS = ['text', 'from', 'senderName'];
const FOR_RECEIVERS_ONLY: Partial<Record<DomainEvent['type'], readonly string[]>> = {
  'contacts.contact.created': ['contact'],
  'contacts.contact.updated': ['contact'],
  'contacts.contact.deleted': ['contact'],
  'whatsapp.message.received': MESSAGE_FIELDS,
  'whatsapp.message.sent': MESSAGE_FIELDS,
};
function keptData(event: DomainEvent): string {
  const dropped = FOR_RECEIVERS_ONLY[event.type] ?? [];
  return JSON.stringify(Object.fromEntries(Object.entries(event.data).filter(([key]) => !dropped.includes(key))));
}

export class RollupsRepository {
  constructor(private readonly sql: Sql) {}

  /** Records the events; returns the ids that were new (the exactly-once check). */
  async recordEvents(tx: TransactionSql, events: DomainEvent[]): Promise<string[]> {
    const rows = await tx<{ id: string }[]>`
      insert into analytics.events (id, user_id, type, occurred_at, data, actor_id)
      -- data travels as text and is parsed here: a text[] cast to jsonb[] would store JSON strings.
      select id, user_id, type, occurred_at, data::jsonb, actor_id from unnest(
        ${events.map((e) => e.id)}::uuid[], ${events.map((e) => e.userId)}::uuid[], ${events.map((e) => e.type)}::text[],
        ${events.map((e) => e.occurredAt)}::timestamptz[], ${events.map(keptData)}::text[],
        ${events.map((e) => e.actorId ?? null)}::uuid[]
      ) as r(id, user_id, type, occurred_at, data, actor_id)
      on conflict (id) do nothing
      returning id`;
    return rows.map((r) => r.id);
  }

  async addCounters(tx: TransactionSql, counters: Counter[]): Promise<void> {
    if (counters.length === 0) return;
    await tx`
      insert into analytics.hourly as h (user_id, metric, hour, value)
      select * from unnest(
        ${counters.map((c) => c.userId)}::uuid[], ${counters.map((c) => c.metric)}::text[],
        ${counters.map((c) => c.hour)}::timestamptz[], ${counters.map((c) => c.value)}::bigint[])
      on conflict (user_id, metric, hour) do update set value = h.value + excluded.value`;
  }

  async addTotals(tx: TransactionSql, totals: Omit<Counter, 'hour'>[]): Promise<void> {
    if (totals.length === 0) return;
    await tx`
      insert into analytics.totals as t (user_id, metric, value)
      select * from unnest(${totals.map((c) => c.userId)}::uuid[], ${totals.map((c) => c.metric)}::text[], ${totals.map((c) => c.value)}::bigint[])
      on conflict (user_id, metric) do update set value = t.value + excluded.value`;
  }

  async touchChats(tx: TransactionSql, chats: ChatSeen[]): Promise<void> {
    if (chats.length === 0) return;
    await tx`
      insert into analytics.whatsapp_chats as c (user_id, chat_id, last_seen)
      select * from unnest(${chats.map((c) => c.userId)}::uuid[], ${chats.map((c) => c.chatId)}::text[], ${chats.map((c) => c.lastSeen)}::timestamptz[])
      on conflict (user_id, chat_id) do update set last_seen = greatest(c.last_seen, excluded.last_seen)`;
  }

  async park(eventId: string | undefined, type: string | undefined, reason: string, payload: unknown): Promise<void> {
    await this.sql`
      insert into analytics.parked_events (event_id, type, reason, payload)
      values (${eventId ?? null}, ${type ?? null}, ${reason}, ${JSON.stringify(payload ?? null)}::jsonb)`;
  }

  async parkedCount(): Promise<number> {
    const [row] = await this.sql<{ n: string }[]>`select count(*) as n from analytics.parked_events`;
    return Number(row?.n ?? 0);
  }

  private windowStart(w: DayWindow) {
    return this.sql`(${w.startDay}::date::timestamp at time zone ${w.tz})`;
  }

  /** Sum of each metric since the window's first local midnight. */
  async sums(userId: string, metrics: Metric[], w: DayWindow): Promise<Map<string, number>> {
    const rows = await this.sql<{ metric: string; total: string }[]>`
      select metric, sum(value) as total from analytics.hourly
      where user_id = ${userId} and metric = any(${metrics}::text[]) and hour >= ${this.windowStart(w)}
      group by metric`;
    return new Map(rows.map((r) => [r.metric, Number(r.total)]));
  }

  async allTime(userId: string, metric: Metric): Promise<number> {
    const [row] = await this.sql<{ value: string }[]>`
      select value from analytics.totals where user_id = ${userId} and metric = ${metric}`;
    return Number(row?.value ?? 0);
  }

  /** One row per local day of the window, zeros included. */
  async daily(userId: string, metric: Metric, w: DayWindow): Promise<{ date: string; value: number }[]> {
    const rows = await this.sql<{ date: string; value: string }[]>`
      with per_day as (
        select (hour at time zone ${w.tz})::date as day, sum(value) as value
        from analytics.hourly
        where user_id = ${userId} and metric = ${metric} and hour >= ${this.windowStart(w)}
        group by 1
      )
      select to_char(d, 'YYYY-MM-DD') as date, coalesce(per_day.value, 0) as value
      from generate_series(${w.startDay}::date, ${w.today}::date, interval '1 day') as d
      left join per_day on per_day.day = d::date
      order by d`;
    return rows.map((r) => ({ date: r.date, value: Number(r.value) }));
  }

  /** Running total at the end of each local day of the window, starting from everything before it. */
  async cumulativeDaily(userId: string, metric: Metric, w: DayWindow): Promise<{ date: string; value: number }[]> {
    const [before] = await this.sql<{ total: string | null }[]>`
      select sum(value) as total from analytics.hourly
      where user_id = ${userId} and metric = ${metric} and hour < ${this.windowStart(w)}`;
    let running = Number(before?.total ?? 0);
    return (await this.daily(userId, metric, w)).map((p) => ({ date: p.date, value: (running += p.value) }));
  }

  /** Sums per ISO weekday (1 = Monday) of the window, per metric. */
  async byWeekday(userId: string, metrics: Metric[], w: DayWindow): Promise<{ isoDow: number; metric: string; value: number }[]> {
    const rows = await this.sql<{ isoDow: number; metric: string; value: string }[]>`
      select extract(isodow from hour at time zone ${w.tz})::int as iso_dow, metric, sum(value) as value
      from analytics.hourly
      where user_id = ${userId} and metric = any(${metrics}::text[]) and hour >= ${this.windowStart(w)}
      group by 1, 2`;
    return rows.map((r) => ({ isoDow: r.isoDow, metric: r.metric, value: Number(r.value) }));
  }

  async activeChats(userId: string, w: DayWindow): Promise<number> {
    const [row] = await this.sql<{ n: string }[]>`
      select count(*) as n from analytics.whatsapp_chats where user_id = ${userId} and last_seen >= ${this.windowStart(w)}`;
    return Number(row?.n ?? 0);
  }

  async recent(userId: string, limit: number): Promise<RecentEvent[]> {
    return this.sql<RecentEvent[]>`
      select id, type, occurred_at, data from analytics.events
      where user_id = ${userId} and type <> 'auth.user.registered'
        -- isMeetingEntry: a meeting's calendar entry is its meeting's line, not a second one.
        and not (type = 'calendar.event.created' and (data ? 'meetingId' or data->>'source' = 'msteams'))
      order by occurred_at desc limit ${limit}`;
  }
}
