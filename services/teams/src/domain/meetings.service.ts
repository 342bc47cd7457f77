import { EVENT_TITLE_MAX, type TeamsMeeting, type TeamsMeetingBody, type TeamsMeetingList, type TeamsMeetingsQuery } from '@asistente/contracts';
import { badRequest, createEvent, type Outbox, type Sql } from '@asistente/kit';
import { toMeeting } from './calendar-event.js';
import type { ConnectionService } from './connection.service.js';
import { viaGraph } from './graph-errors.js';

/** How far ahead the meetings list looks. */
const MEETINGS_WINDOW_MS = 90 * 24 * 3600_000;

/** Meetings that ended in the last hours still show (as Finalizada); older ones do not. */
const RECENT_MS = 12 * 3600_000;

/** Teams online meetings: events of the default Outlook calendar with a Teams join link. */
export class MeetingsService {
  constructor(
    private readonly sql: Sql,
    private readonly connection: ConnectionService,
    private readonly outbox: Outbox,
  ) {}

  async list(userId: string, query: TeamsMeetingsQuery): Promise<TeamsMeetingList> {
    const { graph } = await this.connection.graphFor(userId);
    const from = new Date(Date.now() - RECENT_MS);
    const events = await viaGraph(() => graph.onlineMeetings(from, new Date(from.getTime() + MEETINGS_WINDOW_MS)));
    const offset = (query.page - 1) * query.limit;
    return { meetings: events.slice(offset, offset + query.limit).map((e) => toMeeting(e)), page: query.page, limit: query.limit };
  }

  async create(userId: string, body: TeamsMeetingBody): Promise<TeamsMeeting> {
    const title = body.title.trim();
    if (!title) throw badRequest('El título es requerido', 'TITLE_REQUIRED');
    const startTime = new Date(body.startTime);
    const endTime = new Date(body.endTime);
    if (endTime.getTime() <= startTime.getTime()) throw badRequest('La fecha de fin debe ser posterior a la de inicio', 'INVALID_RANGE');
    const attendees = [...new Set((body.attendees ?? []).map((a) => a.trim().toLowerCase()).filter((a) => a !== ''))];
    const { graph } = await this.connection.graphFor(userId);
    const created = await viaGraph(() => graph.createOnlineMeeting({ title, startTime, endTime, attendees, description: body.description }));
    const meeting = toMeeting(created);
    await this.sql.begin((tx) =>
      this.outbox.append(tx, [
        createEvent('teams.meeting.created', userId, { meetingId: meeting.id, title: title.slice(0, EVENT_TITLE_MAX) }),
        // The meeting's calendar entry: counted by the meeting's event above, not a second time.
        createEvent('calendar.event.created', userId, { eventId: meeting.id, source: 'msteams' as const, meetingId: meeting.id }),
      ]),
    );
    return meeting;
  }
}
