import type { DomainEvent } from '@asistente/contracts';
import { allowLongStatements, type Sql } from '@asistente/kit';
import { ConversationFollower } from './conversation-follower.js';
import { OpeningsRepository } from './openings.repository.js';
import { RollupsRepository } from './rollups.repository.js';
import { Tally } from './tally.js';

export interface RebuildReport {
  events: number;
  rows: number;
  /** Team inbox conversations derived again. */
  conversations: number;
}

/**
 * Recomputes every rollup from the recorded event history with the same
 * tally the consumer applies, in one transaction (readers see the old
 * figures until it commits). Sums are order-independent, so the result
 * equals the incremental one; the team's per-conversation rows are derived
 * by the consumer's own function from the same ordered history.
 */
export async function rebuildRollups(sql: Sql, chunk = 5000): Promise<RebuildReport> {
  const rollups = new RollupsRepository(sql);
  return sql.begin(async (tx) => {
    await allowLongStatements(tx);
    await tx`delete from analytics.hourly`;
    await tx`delete from analytics.totals`;
    await tx`delete from analytics.whatsapp_chats`;
    const tally = new Tally();
    let events = 0;
    const cursor = tx<{ id: string; userId: string; type: string; occurredAt: Date; data: unknown }[]>`
      select id, user_id, type, occurred_at, data from analytics.events`.cursor(chunk);
    for await (const rows of cursor) {
      for (const row of rows) tally.add({ ...row, occurredAt: row.occurredAt.toISOString() } as DomainEvent);
      events += rows.length;
    }
    const counters = tally.counters();
    for (let i = 0; i < counters.length; i += chunk) await rollups.addCounters(tx, counters.slice(i, i + chunk));
    const totals = tally.totals();
    for (let i = 0; i < totals.length; i += chunk) await rollups.addTotals(tx, totals.slice(i, i + chunk));
    const chats = tally.chats();
    for (let i = 0; i < chats.length; i += chunk) await rollups.touchChats(tx, chats.slice(i, i + chunk));
    const conversations = await new ConversationFollower(new OpeningsRepository()).rebuild(tx, chunk);
    // Fresh statistics, or the planner guesses at a table it has never seen this full.
    await tx`analyze analytics.hourly`;
    return { events, rows: counters.length, conversations };
  });
}
