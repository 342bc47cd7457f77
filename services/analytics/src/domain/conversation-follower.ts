import type { DomainEvent } from '@asistente/contracts';
import type { TransactionSql } from '@asistente/kit';
import { followConversation, isConversationEvent } from './openings.js';
import { toConversationEvent, type ConversationKey, type FollowedConversation, type OpeningsRepository, type RecordedConversationEvent } from './openings.repository.js';

/** Groups rows ordered by conversation (as both reads return them) and derives each conversation once. */
function followEach(rows: RecordedConversationEvent[]): FollowedConversation[] {
  const followed: FollowedConversation[] = [];
  let start = 0;
  for (let i = 1; i <= rows.length; i++) {
    const first = rows[start]!;
    const row = rows[i];
    if (row && row.userId === first.userId && row.data.conversationId === first.data.conversationId) continue;
    const { conversationId } = first.data;
    followed.push({ userId: first.userId, conversationId, ...followConversation(conversationId, rows.slice(start, i).map(toConversationEvent)) });
    start = i;
  }
  return followed;
}

/**
 * Keeps the team's per-conversation rows in step with the recorded events. A conversation's rows are derived
 * again from all of its events whenever a batch brings new ones, under that conversation's lock: a late or
 * out-of-order event lands where it belongs, a redelivered one was never recorded twice, and two replicas
 * applying events of one conversation at once take turns, the second reading what the first committed.
 */
export class ConversationFollower {
  constructor(private readonly openings: OpeningsRepository) {}

  /** Within the consumer's transaction, after `events` (the newly recorded ones) were inserted into analytics.events. */
  async apply(tx: TransactionSql, events: DomainEvent[]): Promise<void> {
    const keys = new Map<string, ConversationKey>();
    for (const event of events) {
      if (isConversationEvent(event)) keys.set(`${event.userId}|${event.data.conversationId}`, { userId: event.userId, conversationId: event.data.conversationId });
    }
    if (keys.size === 0) return;
    const wanted = [...keys.values()];
    await this.openings.lock(tx, wanted);
    await this.openings.replace(tx, followEach(await this.openings.events(tx, wanted)));
  }

  /** Derives every conversation again from the whole history into emptied tables; answers how many. */
  async rebuild(tx: TransactionSql, chunk: number): Promise<number> {
    await this.openings.clear(tx);
    let pending: RecordedConversationEvent[] = [];
    const followed: FollowedConversation[] = [];
    for await (const rows of this.openings.history(tx, chunk)) {
      pending.push(...rows);
      // Every conversation but the last may be derived now: the last may go on in the next page.
      const last = pending[pending.length - 1]!;
      const cut = pending.findIndex((r) => r.userId === last.userId && r.data.conversationId === last.data.conversationId);
      followed.push(...followEach(pending.slice(0, cut)));
      pending = pending.slice(cut);
    }
    followed.push(...followEach(pending));
    // Written after the cursor is done: the transaction's connection serves one statement at a time.
    for (let i = 0; i < followed.length; i += chunk) await this.openings.insert(tx, followed.slice(i, i + chunk));
    return followed.length;
  }
}
