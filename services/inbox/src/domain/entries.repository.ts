import type { ConversationEntry, EntryAuthor, EntryKind } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

export interface EntryRow {
  id: string;
  conversationId: string;
  kind: EntryKind;
  direction: 'incoming' | 'outgoing' | null;
  author: EntryAuthor;
  authorId: string | null;
  authorName: string | null;
  body: string;
  /** The channel's own id of a message (what the web channel's visitors see); null for notes and suggestions. */
  channelMessageId: string | null;
  at: Date;
  seq: string;
}

export const toEntry = (r: EntryRow): ConversationEntry => ({
  id: r.id,
  conversationId: r.conversationId,
  kind: r.kind,
  direction: r.direction,
  author: r.author,
  authorId: r.authorId,
  authorName: r.authorName,
  text: r.body,
  at: r.at.toISOString(),
});

export interface NewEntry {
  id: string;
  workspaceId: string;
  conversationId: string;
  kind: EntryKind;
  direction: 'incoming' | 'outgoing' | null;
  author: EntryAuthor;
  authorId: string | null;
  authorName: string | null;
  body: string;
  channelMessageId: string | null;
  at: Date;
}

const COLUMNS = 'id, conversation_id, kind, direction, author, author_id, author_name, body, channel_message_id, at, seq';

/** inbox.entries: a thread's messages, notes and the assistant's suggestions. */
export class EntriesRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The entry, or undefined when the conversation already holds that channel message (the channel's event and
   * the inbox's own send of one message meet here, in whichever order they come).
   */
  async insert(tx: TransactionSql, e: NewEntry): Promise<EntryRow | undefined> {
    const [row] = await tx<EntryRow[]>`
      insert into inbox.entries (id, user_id, conversation_id, kind, direction, author, author_id, author_name, body, channel_message_id, at)
      values (${e.id}, ${e.workspaceId}, ${e.conversationId}, ${e.kind}, ${e.direction}, ${e.author}, ${e.authorId}, ${e.authorName},
        ${e.body}, ${e.channelMessageId}, ${e.at})
      on conflict (conversation_id, channel_message_id) do nothing
      returning ${tx.unsafe(COLUMNS)}`;
    return row;
  }

  async byChannelMessage(conversationId: string, channelMessageId: string, tx: Sql | TransactionSql = this.sql): Promise<EntryRow | undefined> {
    const [row] = await tx<EntryRow[]>`
      select ${tx.unsafe(COLUMNS)} from inbox.entries where conversation_id = ${conversationId} and channel_message_id = ${channelMessageId}`;
    return row;
  }

  /** These entries of the conversation (unknown ids left out), oldest first. */
  async byIds(conversationId: string, ids: readonly string[]): Promise<EntryRow[]> {
    if (ids.length === 0) return [];
    return this.sql<EntryRow[]>`
      select ${this.sql.unsafe(COLUMNS)} from inbox.entries where conversation_id = ${conversationId} and id in ${this.sql(ids)}
      order by at, seq`;
  }

  /** A page of the thread, newest first, before the entry `before` (by storage order). */
  async page(conversationId: string, limit: number, before?: string): Promise<EntryRow[]> {
    const sql = this.sql;
    const cursor = before
      ? sql`and (at, seq) < (select at, seq from inbox.entries where id = ${before} and conversation_id = ${conversationId})`
      : sql``;
    return sql<EntryRow[]>`
      select ${sql.unsafe(COLUMNS)} from inbox.entries where conversation_id = ${conversationId} ${cursor}
      order by at desc, seq desc limit ${limit}`;
  }

  /** The latest `limit` messages to and from the customer (no notes, no suggestions), oldest first. */
  async lastMessages(conversationId: string, limit: number): Promise<EntryRow[]> {
    const rows = await this.sql<EntryRow[]>`
      select ${this.sql.unsafe(COLUMNS)} from inbox.entries where conversation_id = ${conversationId} and kind = 'message'
      order by at desc, seq desc limit ${limit}`;
    return rows.reverse();
  }

  /** Messages (no notes, no suggestions) stored after the entry `seq`, in their order: what a visitor's stream has not sent yet. */
  async messagesAfter(conversationId: string, seq: string, limit: number): Promise<EntryRow[]> {
    return this.sql<EntryRow[]>`
      select ${this.sql.unsafe(COLUMNS)} from inbox.entries
      where conversation_id = ${conversationId} and kind = 'message' and seq > ${seq}
      order by seq limit ${limit}`;
  }

  /**
   * The answer that makes a send stale: the newest outgoing message after the customer's last one, written by
   * someone other than `memberId` after the entry `seenSeq` they last saw.
   */
  async answeredSince(conversationId: string, memberId: string, seenSeq: string | null): Promise<EntryRow | undefined> {
    const [row] = await this.sql<EntryRow[]>`
      select ${this.sql.unsafe(COLUMNS)} from inbox.entries e
      where e.conversation_id = ${conversationId} and e.kind = 'message' and e.direction = 'outgoing'
        and e.author_id is distinct from ${memberId}
        and e.seq > coalesce(${seenSeq}::bigint, 0)
        and e.at >= coalesce((select max(at) from inbox.entries where conversation_id = ${conversationId} and direction = 'incoming'), '-infinity')
      order by e.at desc, e.seq desc limit 1`;
    return row;
  }

  /** What `memberId` has now seen of the conversation: never moves back. */
  async markSeen(workspaceId: string, conversationId: string, memberId: string, seq: string): Promise<void> {
    await this.sql`
      insert into inbox.reads (user_id, conversation_id, member_id, seen_seq) values (${workspaceId}, ${conversationId}, ${memberId}, ${seq})
      on conflict (conversation_id, member_id) do update set seen_seq = greatest(inbox.reads.seen_seq, excluded.seen_seq)`;
  }

  async seenSeq(conversationId: string, memberId: string): Promise<string | null> {
    const [row] = await this.sql<{ seenSeq: string }[]>`
      select seen_seq from inbox.reads where conversation_id = ${conversationId} and member_id = ${memberId}`;
    return row?.seenSeq ?? null;
  }
}
