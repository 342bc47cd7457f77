import type { ConversationChannel, ConversationStatus, InboxConversation, InboxCounts, InboxQuery } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

export interface ConversationRow {
  id: string;
  userId: string;
  channel: ConversationChannel;
  handle: string;
  name: string | null;
  contactId: string | null;
  status: ConversationStatus;
  assigneeId: string | null;
  assistantActive: boolean;
  lastMessageAt: Date | null;
  lastMessagePreview: string | null;
  unread: number;
  createdAt: Date;
}

export const toConversation = (r: ConversationRow): InboxConversation => ({
  id: r.id,
  channel: r.channel,
  handle: r.handle,
  name: r.name,
  contactId: r.contactId,
  status: r.status,
  assigneeId: r.assigneeId,
  assistantActive: r.assistantActive,
  lastMessageAt: r.lastMessageAt?.toISOString() ?? null,
  lastMessagePreview: r.lastMessagePreview,
  unread: r.unread,
  createdAt: r.createdAt.toISOString(),
});

const COLUMNS = 'id, user_id, channel, handle, name, contact_id, status, assignee_id, assistant_active, last_message_at, last_message_preview, unread, created_at';

/** The filters of the list and of its tabs' counts, as SQL fragments over `inbox.conversations`. */
export interface ListFilter {
  workspaceId: string;
  /** The caller, for `assignee=me`. */
  memberId: string;
  assignee: InboxQuery['assignee'];
  status: InboxQuery['status'];
  channel?: string | undefined;
  q?: string | undefined;
}

/** inbox.conversations: one per customer and channel in a workspace. */
export class ConversationsRepository {
  constructor(private readonly sql: Sql) {}

  async find(workspaceId: string, id: string, tx: Sql | TransactionSql = this.sql): Promise<ConversationRow | undefined> {
    const [row] = await tx<ConversationRow[]>`select ${tx.unsafe(COLUMNS)} from inbox.conversations where user_id = ${workspaceId} and id = ${id}`;
    return row;
  }

  /** The row locked for the rest of the transaction: the writes of one conversation take turns. */
  async lock(tx: TransactionSql, workspaceId: string, id: string): Promise<ConversationRow | undefined> {
    const [row] = await tx<ConversationRow[]>`
      select ${tx.unsafe(COLUMNS)} from inbox.conversations where user_id = ${workspaceId} and id = ${id} for update`;
    return row;
  }

  findByHandle(workspaceId: string, channel: string, handle: string): Promise<ConversationRow | undefined> {
    return this.sql<ConversationRow[]>`
      select ${this.sql.unsafe(COLUMNS)} from inbox.conversations
      where user_id = ${workspaceId} and channel = ${channel} and handle = ${handle}`.then((rows) => rows[0]);
  }

  /**
   * The customer's conversation, created when it is the first message: the unique key makes two replicas
   * seeing that message at once create one, and the row stays locked until the transaction ends. `created`
   * tells the one that created it (it alone assigns it).
   */
  async upsert(
    tx: TransactionSql,
    c: { id: string; workspaceId: string; channel: string; handle: string; name: string | null; status: ConversationStatus },
  ): Promise<{ row: ConversationRow; created: boolean }> {
    const [row] = await tx<(ConversationRow & { created: boolean })[]>`
      insert into inbox.conversations (id, user_id, channel, handle, name, status)
      values (${c.id}, ${c.workspaceId}, ${c.channel}, ${c.handle}, ${c.name}, ${c.status})
      on conflict (user_id, channel, handle) do update set name = coalesce(excluded.name, inbox.conversations.name)
      returning ${tx.unsafe(COLUMNS)}, (xmax = 0) as created`;
    const { created, ...rest } = row!;
    return { row: rest, created };
  }

  /** After an entry: the list's order and preview, and the customer's unread count. */
  async touch(tx: TransactionSql, id: string, at: Date, preview: string, { incoming, unread }: { incoming: boolean; unread: boolean }): Promise<void> {
    await tx`
      update inbox.conversations set
        last_message_at = greatest(last_message_at, ${at}),
        last_message_preview = case when last_message_at is null or last_message_at <= ${at} then ${preview} else last_message_preview end,
        last_incoming_at = case when ${incoming} then greatest(last_incoming_at, ${at}) else last_incoming_at end,
        unread = unread + ${unread ? 1 : 0},
        updated_at = now()
      where id = ${id}`;
  }

  async setStatus(tx: TransactionSql, id: string, status: ConversationStatus): Promise<void> {
    await tx`update inbox.conversations set status = ${status}, updated_at = now() where id = ${id}`;
  }

  async setAssignee(tx: TransactionSql, id: string, assigneeId: string | null): Promise<void> {
    await tx`update inbox.conversations set assignee_id = ${assigneeId}, updated_at = now() where id = ${id}`;
  }

  async setAssistantActive(tx: TransactionSql, id: string, active: boolean): Promise<void> {
    await tx`update inbox.conversations set assistant_active = ${active}, updated_at = now() where id = ${id}`;
  }

  async setContact(id: string, contactId: string | null): Promise<void> {
    await this.sql`update inbox.conversations set contact_id = ${contactId} where id = ${id}`;
  }

  /** What a web visitor told of themselves: the name the list shows (kept when they gave none) and their contact. */
  async setCustomer(id: string, customer: { name: string | null; contactId: string | null }): Promise<void> {
    await this.sql`update inbox.conversations set name = coalesce(${customer.name}, name), contact_id = ${customer.contactId} where id = ${id}`;
  }

  async markRead(id: string): Promise<void> {
    await this.sql`update inbox.conversations set unread = 0 where id = ${id} and unread > 0`;
  }

  async list(filter: ListFilter, limit: number, offset: number): Promise<{ rows: ConversationRow[]; total: number }> {
    const where = this.where(filter);
    const rows = await this.sql<ConversationRow[]>`
      select ${this.sql.unsafe(COLUMNS)} from inbox.conversations where ${where}
      order by last_message_at desc nulls last, id limit ${limit} offset ${offset}`;
    const [count] = await this.sql<{ total: number }[]>`select count(*)::int as total from inbox.conversations where ${this.where(filter)}`;
    return { rows, total: count!.total };
  }

  async counts(workspaceId: string, memberId: string, status: InboxQuery['status']): Promise<InboxCounts> {
    const [row] = await this.sql<InboxCounts[]>`
      select
        count(*) filter (where assignee_id = ${memberId})::int as mine,
        count(*) filter (where assignee_id is null)::int as unassigned,
        count(*)::int as "all",
        count(*) filter (where unread > 0)::int as unread
      from inbox.conversations
      where user_id = ${workspaceId} and (${status} = 'any' or status = ${status})`;
    return row!;
  }

  /** Open and pending conversations per member: the "fewest open" rule and the members' list read it. */
  async openPerMember(workspaceId: string, tx: Sql | TransactionSql = this.sql): Promise<Map<string, number>> {
    const rows = await tx<{ assigneeId: string; open: number }[]>`
      select assignee_id, count(*)::int as open from inbox.conversations
      where user_id = ${workspaceId} and assignee_id is not null and status <> 'resolved'
      group by assignee_id`;
    return new Map(rows.map((r) => [r.assigneeId, r.open]));
  }

  /** A member who left: what was assigned to them goes back to the team. Returns the conversations unassigned. */
  async unassignMember(tx: TransactionSql, workspaceId: string | null, memberId: string): Promise<{ id: string; userId: string }[]> {
    return tx<{ id: string; userId: string }[]>`
      update inbox.conversations set assignee_id = null, updated_at = now()
      where assignee_id = ${memberId} and (${workspaceId}::uuid is null or user_id = ${workspaceId})
      returning id, user_id`;
  }

  private where(f: ListFilter) {
    const sql = this.sql;
    const assignee =
      f.assignee === 'any' ? sql`true` : f.assignee === 'none' ? sql`assignee_id is null` : sql`assignee_id = ${f.assignee === 'me' ? f.memberId : f.assignee}`;
    const status = f.status === 'any' ? sql`true` : sql`status = ${f.status}`;
    const channel = f.channel ? sql`channel = ${f.channel}` : sql`true`;
    const q = f.q?.trim();
    const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const search = pattern ? sql`(name ilike ${pattern} or handle ilike ${pattern} or last_message_preview ilike ${pattern})` : sql`true`;
    return sql`user_id = ${f.workspaceId} and ${assignee} and ${status} and ${channel} and ${search}`;
  }
}
