import type { Sql, TransactionSql } from '@asistente/kit';

/** `teams.channels` (which team a listed channel belongs to) and `teams.seen_messages` (received once). */
export class ChannelsRepository {
  constructor(private readonly sql: Sql) {}

  async remember(userId: string, teamId: string, channels: { id: string; name: string }[]): Promise<void> {
    if (channels.length === 0) return;
    const rows = channels.map((c) => ({ userId, channelId: c.id, teamId, name: c.name }));
    await this.sql`
      insert into teams.channels ${this.sql(rows, 'userId', 'channelId', 'teamId', 'name')}
      on conflict (user_id, channel_id) do update set team_id = excluded.team_id, name = excluded.name`;
  }

  async forget(userId: string, channelId: string): Promise<void> {
    await this.sql`delete from teams.channels where user_id = ${userId} and channel_id = ${channelId}`;
  }

  /** The ids among `messageIds` not marked seen yet: a read, so a poll that brings nothing new writes nothing. */
  async unseen(userId: string, messageIds: string[]): Promise<string[]> {
    if (messageIds.length === 0) return [];
    const seen = await this.sql<{ messageId: string }[]>`
      select message_id from teams.seen_messages where user_id = ${userId} and message_id = any(${this.sql.array(messageIds)}::text[])`;
    const known = new Set(seen.map((r) => r.messageId));
    return messageIds.filter((id) => !known.has(id));
  }

  /** The ids among `messageIds` not seen before, now marked seen (inside the caller's transaction). */
  async markSeen(tx: TransactionSql, userId: string, messageIds: string[]): Promise<string[]> {
    if (messageIds.length === 0) return [];
    const inserted = await tx<{ messageId: string }[]>`
      insert into teams.seen_messages (user_id, message_id)
      select ${userId}::uuid, m from unnest(${tx.array(messageIds)}::text[]) as m
      on conflict do nothing returning message_id`;
    return inserted.map((r) => r.messageId);
  }
}
