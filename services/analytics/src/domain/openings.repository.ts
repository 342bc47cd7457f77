import type { TransactionSql } from '@asistente/kit';
import type { ConversationEvent, Followed } from './openings.js';

/** A conversation of a workspace. */
export interface ConversationKey {
  userId: string;
  conversationId: string;
}

/** A recorded conversation event, as analytics.events keeps it. */
export interface RecordedConversationEvent {
  id: string;
  userId: string;
  type: string;
  occurredAt: Date;
  actorId: string | null;
  data: { conversationId: string };
}

export interface FollowedConversation extends ConversationKey, Followed {}

/** The recorded row back in the envelope's shape the derivation reads. */
export function toConversationEvent(row: RecordedConversationEvent): ConversationEvent {
  const { actorId, occurredAt, ...rest } = row;
  return { ...rest, occurredAt: occurredAt.toISOString(), ...(actorId ? { actorId } : {}) } as ConversationEvent;
}

/** The team's per-conversation rows (analytics.conversation_openings and conversation_answerers), written from events. */
export class OpeningsRepository {
  /**
   * Holds these conversations until the transaction ends: a replica deriving one waits for another that is, and
   * then reads the events that one committed. Taken in one order (the keys' hashes, sorted), so two batches
   * sharing conversations cannot deadlock on them.
   */
  async lock(tx: TransactionSql, keys: ConversationKey[]): Promise<void> {
    const names = keys.map((k) => `analytics.conversation:${k.userId}:${k.conversationId}`);
    await tx`
      select pg_advisory_xact_lock(h) from (
        select distinct hashtextextended(name, 0) as h from unnest(${names}::text[]) as name order by 1
      ) as ordered`;
  }

  /** Every recorded event of these conversations, each conversation's in order (occurredAt, then id). */
  async events(tx: TransactionSql, keys: ConversationKey[]): Promise<RecordedConversationEvent[]> {
    return tx<RecordedConversationEvent[]>`
      select e.id, e.user_id, e.type, e.occurred_at, e.actor_id, e.data
      from unnest(${keys.map((k) => k.userId)}::uuid[], ${keys.map((k) => k.conversationId)}::text[]) as k(user_id, conversation_id)
      join analytics.events e
        on e.user_id = k.user_id and e.type like 'conversation.%' and e.data->>'conversationId' = k.conversation_id
      order by e.user_id, e.data->>'conversationId', e.occurred_at, e.id`;
  }

  /** Replaces what was derived of these conversations by what is now. */
  async replace(tx: TransactionSql, followed: FollowedConversation[]): Promise<void> {
    if (followed.length === 0) return;
    const users = followed.map((f) => f.userId);
    const conversations = followed.map((f) => f.conversationId);
    await tx`
      delete from analytics.conversation_openings o using unnest(${users}::uuid[], ${conversations}::uuid[]) as k(user_id, conversation_id)
      where o.user_id = k.user_id and o.conversation_id = k.conversation_id`;
    await tx`
      delete from analytics.conversation_answerers a using unnest(${users}::uuid[], ${conversations}::uuid[]) as k(user_id, conversation_id)
      where a.user_id = k.user_id and a.conversation_id = k.conversation_id`;
    await this.insert(tx, followed);
  }

  /** Adds derived rows (the rebuild's, into emptied tables; `replace`'s, once it removed the old ones). */
  async insert(tx: TransactionSql, followed: FollowedConversation[]): Promise<void> {
    const openings = followed.flatMap((f) => f.openings.map((o) => ({ ...o, userId: f.userId })));
    const answerers = followed.flatMap((f) => f.answerers.map((a) => ({ ...a, userId: f.userId })));
    if (openings.length > 0) {
      await tx`
        insert into analytics.conversation_openings (user_id, conversation_id, opened_by, opened_at, first_answer_at,
          first_answer_author, first_answer_member, assignee_id, resolved_at, resolved_by)
        select * from unnest(
          ${openings.map((o) => o.userId)}::uuid[], ${openings.map((o) => o.conversationId)}::uuid[], ${openings.map((o) => o.openedBy)}::uuid[],
          ${openings.map((o) => o.openedAt.toISOString())}::timestamptz[], ${openings.map((o) => o.firstAnswerAt?.toISOString() ?? null)}::timestamptz[],
          ${openings.map((o) => o.firstAnswerAuthor)}::text[], ${openings.map((o) => o.firstAnswerMember)}::uuid[],
          ${openings.map((o) => o.assigneeId)}::uuid[], ${openings.map((o) => o.resolvedAt?.toISOString() ?? null)}::timestamptz[],
          ${openings.map((o) => o.resolvedBy)}::uuid[])`;
    }
    if (answerers.length > 0) {
      await tx`
        insert into analytics.conversation_answerers (user_id, conversation_id, answerer, last_answered_at)
        select * from unnest(
          ${answerers.map((a) => a.userId)}::uuid[], ${answerers.map((a) => a.conversationId)}::uuid[],
          ${answerers.map((a) => a.answerer)}::text[], ${answerers.map((a) => a.lastAnsweredAt.toISOString())}::timestamptz[])`;
    }
  }

  /** Empties both tables (the rebuild derives them again from the whole history). */
  async clear(tx: TransactionSql): Promise<void> {
    await tx`delete from analytics.conversation_openings`;
    await tx`delete from analytics.conversation_answerers`;
  }

  /** Every recorded conversation event, one conversation after another, in pages of `chunk` rows. */
  history(tx: TransactionSql, chunk: number) {
    return tx<RecordedConversationEvent[]>`
      select id, user_id, type, occurred_at, actor_id, data from analytics.events
      where type like 'conversation.%'
      order by user_id, data->>'conversationId', occurred_at, id`.cursor(chunk);
  }
}
