import type { Sql } from '@asistente/kit';
import type { EventRecord } from './event-record.js';

/** A mirrored event as the export reads it: the mirror's record (without what only Google's screens show), and its calendar's name. */
export type ExportedEvent = Omit<EventRecord, 'recurringEventId' | 'hangoutLink'> & { calendarName: string | null };

export interface ExportedCalDavObject {
  calendarId: string;
  href: string;
  /** The VCALENDAR as the CalDAV server sent it. */
  ics: string;
}

/** The user's events for "Descargar mis datos", in keyset pages on the primary keys. Never a Google grant or a CalDAV password. */
export class AccountExportRepository {
  constructor(private readonly sql: Sql) {}

  async events(userId: string, after: [string, string] | undefined, limit: number): Promise<ExportedEvent[]> {
    return this.sql<ExportedEvent[]>`
      select e.calendar_id, c.summary as calendar_name, e.id, e.summary, e.description, e.location, e.all_day, e.start_at, e.end_at,
        e.start_date::text as start_date, e.end_date::text as end_date, e.attendees, e.status, e.transparency, e.recurrence,
        e.html_link, e.created_at, e.updated_at
      from calendar.events e left join calendar.calendars c on c.user_id = e.user_id and c.id = e.calendar_id
      where e.user_id = ${userId} ${after ? this.sql`and (e.calendar_id, e.id) > (${after[0]}, ${after[1]})` : this.sql``}
      order by e.calendar_id, e.id
      limit ${limit}`;
  }

  async caldavObjects(userId: string, after: [string, string] | undefined, limit: number): Promise<ExportedCalDavObject[]> {
    return this.sql<ExportedCalDavObject[]>`
      select calendar_id, href, ics from calendar.caldav_objects
      where user_id = ${userId} ${after ? this.sql`and (calendar_id, href) > (${after[0]}, ${after[1]})` : this.sql``}
      order by calendar_id, href
      limit ${limit}`;
  }
}
