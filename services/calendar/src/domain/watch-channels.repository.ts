import type { Sql } from '@asistente/kit';

export interface WatchChannel {
  id: string;
  userId: string;
  calendarId: string;
  resourceId: string;
  tokenHash: string;
  expiresAt: Date;
}

/** `calendar.watch_channels`: the Google push channels open on mirrored calendars. */
export class WatchChannelsRepository {
  constructor(private readonly sql: Sql) {}

  async find(id: string): Promise<WatchChannel | undefined> {
    const [row] = await this.sql<WatchChannel[]>`
      select id, user_id, calendar_id, resource_id, token_hash, expires_at from calendar.watch_channels where id = ${id}`;
    return row;
  }

  async ofCalendar(userId: string, calendarId: string): Promise<WatchChannel | undefined> {
    const [row] = await this.sql<WatchChannel[]>`
      select id, user_id, calendar_id, resource_id, token_hash, expires_at
      from calendar.watch_channels where user_id = ${userId} and calendar_id = ${calendarId}`;
    return row;
  }

  ofUser(userId: string): Promise<WatchChannel[]> {
    return this.sql<WatchChannel[]>`
      select id, user_id, calendar_id, resource_id, token_hash, expires_at from calendar.watch_channels where user_id = ${userId}`;
  }

  /** Channels that expire before `before` (renewed ahead of time). */
  expiringBefore(before: Date, limit = 100): Promise<WatchChannel[]> {
    return this.sql<WatchChannel[]>`
      select id, user_id, calendar_id, resource_id, token_hash, expires_at from calendar.watch_channels
      where expires_at < ${before} order by expires_at limit ${limit}`;
  }

  /** The calendar's channel, replacing the one it had. False when the calendar is no longer mirrored. */
  async save(channel: WatchChannel): Promise<boolean> {
    const rows = await this.sql`
      insert into calendar.watch_channels (id, user_id, calendar_id, resource_id, token_hash, expires_at)
      select ${channel.id}, ${channel.userId}, ${channel.calendarId}, ${channel.resourceId}, ${channel.tokenHash}, ${channel.expiresAt}
      where exists (select 1 from calendar.calendars where user_id = ${channel.userId} and id = ${channel.calendarId})
      on conflict (user_id, calendar_id) do update set
        id = excluded.id, resource_id = excluded.resource_id, token_hash = excluded.token_hash,
        expires_at = excluded.expires_at, created_at = now()`;
    return rows.count > 0;
  }

  async delete(id: string): Promise<void> {
    await this.sql`delete from calendar.watch_channels where id = ${id}`;
  }
}
