import type { Sql } from '@asistente/kit';

/** A burst a replica claimed: the customer's messages (the inbox's entries) it answers in one go. */
export interface ClaimedBurst {
  id: string;
  userId: string;
  conversationId: string;
  messageIds: string[];
}

/**
 * `ai.chat_bursts` and `ai.auto_reply_seen`: what every ai replica knows of the bursts waiting for an answer. A
 * burst's `chat_id` holds its conversation's id in the team inbox (one left from before held a WhatsApp JID: the
 * inbox refuses to read it and the burst is dropped).
 */
export class ChatBurstsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Takes a customer message into its conversation's open burst (a new one if none is open) and pushes the burst's due
   * time to `quietMs` from now, unless the message was taken before: one statement, so the message is recorded
   * as seen exactly when it joins a burst. Whether it joined.
   */
  async add(userId: string, conversationId: string, messageId: string, quietMs: number): Promise<boolean> {
    const rows = await this.sql`
      with fresh as (
        insert into ai.auto_reply_seen (user_id, message_id) values (${userId}, ${messageId})
        on conflict do nothing
        returning message_id
      )
      insert into ai.chat_bursts (user_id, chat_id, message_ids, due_at)
      select ${userId}, ${conversationId}, array[message_id], now() + ${quietMs} * interval '1 millisecond' from fresh
      on conflict (user_id, chat_id) where claimed_by is null do update
        set message_ids = ai.chat_bursts.message_ids || excluded.message_ids,
            due_at = greatest(ai.chat_bursts.due_at, excluded.due_at)
      returning id`;
    return rows.length === 1;
  }

  /** A person answered: the conversation's waiting burst is dropped (one being answered is refused by the inbox). */
  async dropOpen(userId: string, conversationId: string): Promise<void> {
    await this.sql`delete from ai.chat_bursts where user_id = ${userId} and chat_id = ${conversationId} and claimed_by is null`;
  }

  /**
   * Up to `limit` bursts that fell due and nobody holds (never claimed, or their replica's lease ran out),
   * leased to `replica`. SKIP LOCKED: replicas claiming at once never take the same burst.
   */
  async claim(replica: string, leaseMs: number, limit: number, maxAttempts: number): Promise<ClaimedBurst[]> {
    return this.sql<ClaimedBurst[]>`
      update ai.chat_bursts set
        claimed_by = ${replica},
        claimed_until = now() + ${leaseMs} * interval '1 millisecond',
        attempts = attempts + 1
      where id in (
        select id from ai.chat_bursts
        where due_at <= now() and (claimed_by is null or claimed_until < now()) and attempts < ${maxAttempts}
        order by due_at
        limit ${limit}
        for update skip locked
      )
      returning id, user_id, chat_id as conversation_id, message_ids`;
  }

  /** Extends the leases of the bursts this replica is answering. */
  async renew(replica: string, ids: string[], leaseMs: number): Promise<void> {
    await this.sql`
      update ai.chat_bursts set claimed_until = now() + ${leaseMs} * interval '1 millisecond'
      where claimed_by = ${replica} and id in ${this.sql(ids)}`;
  }

  /** Answered (or given up after a failure this replica saw): the burst is done. */
  async finish(replica: string, id: string): Promise<void> {
    await this.sql`delete from ai.chat_bursts where id = ${id} and claimed_by = ${replica}`;
  }

  /**
   * Forgets seen messages older than `seenRetentionMs` and drops bursts whose every claim died with its replica;
   * answers how many bursts were given up.
   */
  async cleanUp(seenRetentionMs: number, maxAttempts: number): Promise<number> {
    await this.sql`delete from ai.auto_reply_seen where seen_at < now() - ${seenRetentionMs} * interval '1 millisecond'`;
    const dropped = await this.sql`delete from ai.chat_bursts where attempts >= ${maxAttempts} and claimed_until < now()`;
    return dropped.count;
  }
}
