import type { Sql, TransactionSql } from '@asistente/kit';

export interface MeetingRow {
  id: string;
  calendarId: string;
  eventId: string;
  title: string;
  description: string | null;
  startTime: Date;
  endTime: Date;
  attendees: string[];
  meetingUrl: string | null;
  status: 'scheduled' | 'ended';
  createdAt: Date;
}

export type NewMeeting = Omit<MeetingRow, 'id' | 'status' | 'createdAt'>;

/** `calendar.meetings`: the Google Meet meetings created from the product. */
export class MeetingsRepository {
  constructor(private readonly sql: Sql) {}

  async insert(tx: TransactionSql, userId: string, meeting: NewMeeting): Promise<MeetingRow> {
    const [row] = await tx<MeetingRow[]>`
      insert into calendar.meetings (user_id, calendar_id, event_id, title, description, start_time, end_time, attendees, meeting_url)
      values (${userId}, ${meeting.calendarId}, ${meeting.eventId}, ${meeting.title}, ${meeting.description},
              ${meeting.startTime}, ${meeting.endTime}, ${meeting.attendees}, ${meeting.meetingUrl})
      returning id, calendar_id, event_id, title, description, start_time, end_time, attendees, meeting_url, status, created_at`;
    return row!;
  }

  async find(userId: string, id: string): Promise<MeetingRow | undefined> {
    const [row] = await this.sql<MeetingRow[]>`
      select id, calendar_id, event_id, title, description, start_time, end_time, attendees, meeting_url, status, created_at
      from calendar.meetings where user_id = ${userId} and id = ${id}`;
    return row;
  }

  /** Newest first. */
  async page(userId: string, limit: number, offset: number): Promise<{ rows: MeetingRow[]; total: number }> {
    const rows = await this.sql<MeetingRow[]>`
      select id, calendar_id, event_id, title, description, start_time, end_time, attendees, meeting_url, status, created_at
      from calendar.meetings where user_id = ${userId}
      order by start_time desc, id limit ${limit} offset ${offset}`;
    const [count] = await this.sql<{ total: number }[]>`select count(*)::int as total from calendar.meetings where user_id = ${userId}`;
    return { rows, total: count?.total ?? 0 };
  }

  async end(tx: TransactionSql, userId: string, id: string, endTime: Date): Promise<MeetingRow | undefined> {
    const [row] = await tx<MeetingRow[]>`
      update calendar.meetings set status = 'ended', end_time = ${endTime}
      where user_id = ${userId} and id = ${id}
      returning id, calendar_id, event_id, title, description, start_time, end_time, attendees, meeting_url, status, created_at`;
    return row;
  }
}
