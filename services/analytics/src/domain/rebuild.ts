import type { DomainEvent } from '@asistente/contracts';
import type { Sql } from '@asistente/kit';
import { incrementsFor, whatsappChatOf } from './metrics.js';

export interface RebuildReport {
  events: number;
  rows: number;
}

/**
 * Recomputes every rollup from the recorded event history with the same
 * increments the consumer applies, in one transaction (readers see the old
 * figures until it commits). Sums are order-independent, so the result
 * equals the incremental one.
 */
export async function rebuildRollups(sql: Sql, chunk = 5000): Promise<RebuildReport> {
  return sql.begin(async (tx) => {
    await tx`delete from analytics.hourly`;
    await tx`delete from analytics.whatsapp_chats`;
    const counters = new Map<string, number>();
    const chats = new Map<string, string>();
    let events = 0;
    const cursor = tx<{ id: string; userId: string; type: string; occurredAt: Date; data: unknown }[]>`
      select id, user_id, type, occurred_at, data from analytics.events`.cursor(chunk);
    for await (const rows of cursor) {
      for (const row of rows) {
        const event = { ...row, occurredAt: row.occurredAt.toISOString() } as DomainEvent;
        const hour = new Date(row.occurredAt);
        hour.setUTCMinutes(0, 0, 0);
        for (const [metric, value] of incrementsFor(event)) {
          const key = `${row.userId}|${metric}|${hour.toISOString()}`;
          counters.set(key, (counters.get(key) ?? 0) + value);
        }
        const chat = whatsappChatOf(event);
        if (chat) {
          const key = `${row.userId}|${chat}`;
          const seen = chats.get(key);
          if (!seen || seen < event.occurredAt) chats.set(key, event.occurredAt);
        }
        events++;
      }
    }
    const entries = [...counters].map(([key, value]) => [...key.split('|'), value] as [string, string, string, number]);
    for (let i = 0; i < entries.length; i += chunk) {
      const part = entries.slice(i, i + chunk);
      await tx`
        insert into analytics.hourly (user_id, metric, hour, value)
        select * from unnest(${part.map((e) => e[0])}::uuid[], ${part.map((e) => e[1])}::text[],
          ${part.map((e) => e[2])}::timestamptz[], ${part.map((e) => e[3])}::bigint[])`;
    }
    const chatRows = [...chats].map(([key, seen]) => [...key.split('|'), seen] as [string, string, string]);
    for (let i = 0; i < chatRows.length; i += chunk) {
      const part = chatRows.slice(i, i + chunk);
      await tx`
        insert into analytics.whatsapp_chats (user_id, chat_id, last_seen)
        select * from unnest(${part.map((e) => e[0])}::uuid[], ${part.map((e) => e[1])}::text[], ${part.map((e) => e[2])}::timestamptz[])`;
    }
    return { events, rows: entries.length };
  });
}
