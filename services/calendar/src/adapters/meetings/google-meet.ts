import { EVENT_TITLE_MAX } from '@asistente/contracts';
import { createEvent, type Outbox, type Sql } from '@asistente/kit';
import type { CalendarSyncService } from '../../domain/calendar-sync.service.js';
import type { EventInput } from '../../domain/event-record.js';
import type { GoogleConnectionService } from '../../domain/google-connection.service.js';
import type { MeetingRow, MeetingsRepository } from '../../domain/meetings.repository.js';
import type { MeetCalendar } from '../../domain/meetings.service.js';
import type { CreatedMeeting, MeetingProvider, MeetingRequest } from '../../domain/meetings/meeting-port.js';
import type { MirrorRepository } from '../../domain/mirror.repository.js';
import { eventNotFound } from '../../domain/provider-errors.js';
import type { GoogleWrites } from '../calendars/google/writes.js';

/** A Google Meet meeting: an event of the member's Google calendar with a Meet conference, invitations sent. */
export class GoogleMeetProvider implements MeetingProvider, MeetCalendar {
  readonly name = 'google-meet';
  readonly account = 'Google Calendar';

  constructor(
    private readonly sql: Sql,
    private readonly connection: GoogleConnectionService,
    private readonly writes: GoogleWrites,
    private readonly sync: CalendarSyncService,
    private readonly mirror: MirrorRepository,
    private readonly meetings: MeetingsRepository,
    private readonly outbox: Outbox,
  ) {}

  async connected(userId: string): Promise<boolean> {
    return (await this.connection.status(userId)).connected;
  }

  async create(userId: string, request: MeetingRequest): Promise<CreatedMeeting> {
    const { description, ...rest } = request;
    const row = await this.createIn(userId, 'primary', { ...rest, ...(description !== null ? { description } : {}) });
    return {
      id: row.id,
      provider: this.name,
      joinUrl: row.meetingUrl,
      title: row.title,
      startTime: row.startTime,
      endTime: row.endTime,
      attendees: row.attendees,
    };
  }

  /**
   * In one of the member's Google calendars (the Google Meet screen may name it): the event in Google first, then
   * its mirror, the meeting row and the outbox in one transaction. `input.attendees` come checked.
   */
  async createIn(userId: string, calendarId: string, input: EventInput & { attendees: string[] }): Promise<MeetingRow> {
    const calendar = await this.sync.calendar(userId, calendarId);
    const event = await this.writes.call(userId, (api) => api.createEvent(calendar.id, input, { conference: true, notifyAttendees: true }));
    return this.sql.begin(async (tx) => {
      await this.mirror.upsertEvents(tx, userId, [event]);
      const meeting = await this.meetings.insert(tx, userId, {
        calendarId: calendar.id,
        eventId: event.id,
        title: input.title,
        description: input.description ?? null,
        startTime: input.startTime,
        endTime: input.endTime,
        attendees: input.attendees,
        meetingUrl: event.hangoutLink,
      });
      await this.outbox.append(tx, [
        createEvent('meet.meeting.created', userId, { meetingId: meeting.id, title: input.title.slice(0, EVENT_TITLE_MAX) }),
        // The meeting's calendar entry: counted by the meeting's event above, not a second time.
        createEvent('calendar.event.created', userId, { eventId: event.id, source: 'google', meetingId: meeting.id }),
      ]);
      return meeting;
    });
  }

  /** Cuts the meeting's event short at `at` in Google, then in the mirror with its domain event. */
  async endEvent(userId: string, calendarId: string, eventId: string, at: Date): Promise<void> {
    const event = await this.writes.call(userId, (api) => api.updateEvent(calendarId, eventId, { endTime: at }), eventNotFound);
    await this.sql.begin(async (tx) => {
      await this.mirror.upsertEvents(tx, userId, [event]);
      await this.outbox.append(tx, [createEvent('calendar.event.updated', userId, { eventId: event.id, source: 'google' })]);
    });
  }
}
