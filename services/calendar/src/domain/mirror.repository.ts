import type { Sql, TransactionSql } from '@asistente/kit';
import type { CalendarRecord, EventRecord } from './event-record.js';
import { toCalendarEvent } from './normalize.js';

export interface MirroredCalendar extends CalendarRecord {
  syncToken: string | null;
  syncedAt: Date | null;
  /** Changes with every change to the calendar's mirrored events (bigint, as text). */
  version: string;
}

type Db = Sql | TransactionSql;

/** What a view needs of the Google account: whether the grant was revoked and how old the calendar list is. */
export interface AccountMarks {
  revokedAt: Date | null;
  calendarsSyncedAt: Date | null;
}

const EVENT_COLUMNS = [
  'userId', 'calendarId', 'id', 'summary', 'description', 'location', 'allDay', 'startAt', 'endAt', 'startDate', 'endDate',
  'attendees', 'status', 'transparency', 'recurrence', 'recurringEventId', 'hangoutLink', 'htmlLink', 'createdAt', 'updatedAt',
  'normalized',
] as const;
/** Rows per INSERT: 21 columns each, well under Postgres's 65,535 parameters. */
const INSERT_BATCH = 1000;

/** The most events one range answers (a month rarely holds a tenth of it). */
export const MAX_RANGE_EVENTS = 5000;

/** `calendar.calendars` and `calendar.events`: the local copy the views read. */
export class MirrorRepository {
  constructor(private readonly sql: Sql) {}

  calendars(userId: string): Promise<MirroredCalendar[]> {
    return this.sql<MirroredCalendar[]>`
      select id, summary, background_color, is_primary as primary, access_role, sync_token, synced_at, version::text as version
      from calendar.calendars where user_id = ${userId}
      order by is_primary desc, position, summary`;
  }

  /**
   * The account's sync marks and its mirrored calendars in one round trip (every view starts here).
   * No account: undefined.
   */
  async accountCalendars(userId: string): Promise<{ account: AccountMarks; calendars: MirroredCalendar[] } | undefined> {
    const rows = await this.sql<(AccountMarks & { [K in keyof MirroredCalendar]: MirroredCalendar[K] | null })[]>`
      select a.revoked_at, a.calendars_synced_at,
             c.id, c.summary, c.background_color, c.is_primary as primary, c.access_role, c.sync_token, c.synced_at,
             c.version::text as version
      from calendar.google_accounts a left join calendar.calendars c on c.user_id = a.user_id
      where a.user_id = ${userId}
      order by c.is_primary desc, c.position, c.summary`;
    const [first] = rows;
    if (!first) return undefined;
    const calendars = rows.flatMap(({ revokedAt: _r, calendarsSyncedAt: _c, id, version, ...rest }) =>
      id === null || version === null ? [] : [{ ...rest, id, version } as MirroredCalendar],
    );
    return { account: { revokedAt: first.revokedAt, calendarsSyncedAt: first.calendarsSyncedAt }, calendars };
  }

  /** Replaces the calendar list, keeping the sync state (and events) of calendars that remain. */
  async replaceCalendars(userId: string, calendars: CalendarRecord[]): Promise<void> {
    await this.sql.begin(async (tx) => {
      const ids = calendars.map((c) => c.id);
      await tx`delete from calendar.calendars where user_id = ${userId} and not (id = any(${ids}::text[]))`;
      for (const [position, c] of calendars.entries()) {
        await tx`
          insert into calendar.calendars (user_id, id, summary, background_color, is_primary, access_role, position)
          values (${userId}, ${c.id}, ${c.summary}, ${c.backgroundColor}, ${c.primary}, ${c.accessRole}, ${position})
          on conflict (user_id, id) do update set
            summary = excluded.summary, background_color = excluded.background_color,
            is_primary = excluded.is_primary, access_role = excluded.access_role, position = excluded.position`;
      }
    });
  }

  async upsertEvents(db: Db, userId: string, events: EventRecord[]): Promise<void> {
    if (events.length === 0) return;
    for (let i = 0; i < events.length; i += INSERT_BATCH) {
      // The stored view is the API's normalised event, computed here once rather than on every read.
      const rows = events.slice(i, i + INSERT_BATCH).map((e) => ({ ...e, userId, normalized: db.json(toCalendarEvent(e)) }));
      await db`
        insert into calendar.events ${db(rows, ...EVENT_COLUMNS)}
        on conflict (user_id, calendar_id, id) do update set
          summary = excluded.summary, description = excluded.description, location = excluded.location,
          all_day = excluded.all_day, start_at = excluded.start_at, end_at = excluded.end_at,
          start_date = excluded.start_date, end_date = excluded.end_date, attendees = excluded.attendees,
          status = excluded.status, transparency = excluded.transparency, recurrence = excluded.recurrence,
          recurring_event_id = excluded.recurring_event_id, hangout_link = excluded.hangout_link,
          html_link = excluded.html_link, created_at = excluded.created_at, updated_at = excluded.updated_at,
          normalized = excluded.normalized`;
    }
    await this.bump(db, userId, [...new Set(events.map((e) => e.calendarId))]);
  }

  async deleteEvents(db: Db, userId: string, calendarId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await db`delete from calendar.events where user_id = ${userId} and calendar_id = ${calendarId} and id = any(${ids}::text[])`;
    await this.bump(db, userId, [calendarId]);
  }

  async clearEvents(db: Db, userId: string, calendarId: string): Promise<void> {
    await db`delete from calendar.events where user_id = ${userId} and calendar_id = ${calendarId}`;
    await this.bump(db, userId, [calendarId]);
  }

  /** Marks the calendars' mirrored events as changed (see `version`). */
  private async bump(db: Db, userId: string, calendarIds: string[]): Promise<void> {
    await db`update calendar.calendars set version = nextval('calendar.mirror_versions') where user_id = ${userId} and id = any(${calendarIds}::text[])`;
  }

  async markSynced(db: Db, userId: string, calendarId: string, syncToken: string | null): Promise<void> {
    await db`update calendar.calendars set sync_token = ${syncToken}, synced_at = now() where user_id = ${userId} and id = ${calendarId}`;
  }

  /** Events overlapping [from, to) in the given calendars, by start (the first `limit`). */
  eventsInRange(userId: string, calendarIds: string[], from: Date, to: Date, limit = MAX_RANGE_EVENTS): Promise<EventRecord[]> {
    return this.sql<EventRecord[]>`
      select calendar_id, id, summary, description, location, all_day, start_at, end_at,
             to_char(start_date, 'YYYY-MM-DD') as start_date, to_char(end_date, 'YYYY-MM-DD') as end_date,
             attendees, status, transparency, recurrence, recurring_event_id, hangout_link, html_link, created_at, updated_at
      from calendar.events
      where user_id = ${userId} and calendar_id = any(${calendarIds}::text[])
        and start_at < ${to} and end_at > ${from}
      order by start_at, id
      limit ${limit}`;
  }

  /** The normalised events overlapping [from, to), by start, as one JSON array text built by the database. */
  async normalizedInRange(userId: string, calendarIds: string[], from: Date, to: Date): Promise<string> {
    const [row] = await this.sql<{ json: string }[]>`
      select coalesce(json_agg(normalized order by start_at, id), '[]')::text as json
      from (
        select normalized, start_at, id from calendar.events
        where user_id = ${userId} and calendar_id = any(${calendarIds}::text[])
          and start_at < ${to} and end_at > ${from}
        order by start_at, id
        limit ${MAX_RANGE_EVENTS}
      ) range`;
    return row?.json ?? '[]';
  }
}
