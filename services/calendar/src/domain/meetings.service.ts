import { type Meeting, type MeetingBody, type MeetingList, type MeetingListQuery } from '@asistente/contracts';
import { AppError, notFound, type Sql } from '@asistente/kit';
import { eventInput } from './event-form.js';
import type { EventInput } from './event-record.js';
import type { MeetingRow, MeetingsRepository } from './meetings.repository.js';
import { attendeeList } from './meetings/video-meetings.service.js';

const NOT_FOUND = 'Reunión no encontrada';

function toMeeting(row: MeetingRow): Meeting {
  return {
    id: row.id,
    title: row.title,
    description: row.description ?? '',
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    attendees: row.attendees,
    meetingUrl: row.meetingUrl,
    status: row.status,
    calendarId: row.calendarId,
    eventId: row.eventId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** What the Google Meet screen needs of Google Meet beyond the meeting port: a named calendar, an event cut short. */
export interface MeetCalendar {
  /** The meeting in one of the member's calendars, its row stored. `input.attendees` come checked. */
  createIn(userId: string, calendarId: string, input: EventInput & { attendees: string[] }): Promise<MeetingRow>;
  /** The meeting's calendar event now ends at `at` (Failures: AppErrors; a gone event is a 404). */
  endEvent(userId: string, calendarId: string, eventId: string, at: Date): Promise<void>;
}

/**
 * The Google Meet screen's meetings (calendar.meetings): created through the meeting port's Google provider,
 * then listed, joined and ended here.
 */
export class MeetingsService {
  constructor(
    private readonly sql: Sql,
    private readonly googleMeet: MeetCalendar,
    private readonly meetings: MeetingsRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /** The Google Meet screen's form: through the meeting port's Google provider, in the calendar it names. */
  async create(userId: string, body: MeetingBody): Promise<Meeting> {
    const input = eventInput(body);
    return toMeeting(await this.googleMeet.createIn(userId, body.calendarId ?? 'primary', { ...input, attendees: attendeeList(body.attendees) }));
  }

  async list(userId: string, query: MeetingListQuery): Promise<MeetingList> {
    const { rows, total } = await this.meetings.page(userId, query.limit, (query.page - 1) * query.limit);
    return { meetings: rows.map(toMeeting), total, page: query.page, limit: query.limit };
  }

  async joinUrl(userId: string, id: string): Promise<string> {
    const meeting = await this.meetings.find(userId, id);
    if (!meeting) throw notFound(NOT_FOUND);
    if (!meeting.meetingUrl) throw new AppError(409, 'NO_MEETING_URL', 'Esta reunión no tiene enlace de Google Meet');
    return meeting.meetingUrl;
  }

  /** Ends the meeting: a meeting in progress has its calendar event cut short at this minute in Google too. */
  async end(userId: string, id: string): Promise<Meeting> {
    const meeting = await this.meetings.find(userId, id);
    if (!meeting) throw notFound(NOT_FOUND);
    if (meeting.status === 'ended') return toMeeting(meeting);
    const now = new Date(this.now());
    const inProgress = meeting.startTime.getTime() <= now.getTime() && meeting.endTime.getTime() > now.getTime();
    if (inProgress) await this.googleMeet.endEvent(userId, meeting.calendarId, meeting.eventId, now);
    const ended = await this.sql.begin((tx) => this.meetings.end(tx, userId, id, inProgress ? now : meeting.endTime));
    if (!ended) throw notFound(NOT_FOUND);
    return toMeeting(ended);
  }
}
