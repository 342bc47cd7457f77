import { AppError } from '@asistente/kit';
import type { CalendarEvent, EventBody, GoogleEvent } from '@asistente/contracts';
import type { CaldavConnectionService } from './caldav-connection.service.js';
import type { CaldavEventsService } from './caldav-events.service.js';
import type { Range } from './dates.js';
import type { EventsService } from './events.service.js';
import { jsonView, type JsonView } from './view-cache.js';

/** Google answers these when the user simply has no usable Google calendar: the others still show. */
const GOOGLE_ABSENT = new Set(['GOOGLE_NOT_CONFIGURED', 'GOOGLE_NOT_CONNECTED', 'GOOGLE_RECONNECT']);

const startOf = (e: CalendarEvent) => Date.parse(e.startDate.length === 10 ? `${e.startDate}T00:00:00Z` : e.startDate);

/**
 * The provider-neutral routes' dispatcher: which provider holds a calendar id (CalDAV ids are the collections'
 * URLs, kept per user; any other id is Google's, as it always was) and the agenda merged across providers.
 * A user with no CalDAV account gets exactly Google's answers.
 */
export class CalendarSources {
  constructor(
    private readonly google: EventsService,
    private readonly caldav: CaldavEventsService,
    private readonly caldavConnection: CaldavConnectionService,
  ) {}

  async range(userId: string, range: Range, force: boolean, calendarId?: string): Promise<JsonView> {
    if (calendarId) {
      if (await this.caldav.owns(userId, calendarId)) return jsonView(JSON.stringify(await this.caldav.events(userId, range, force, calendarId)));
      return this.google.normalized(userId, calendarId, range, force);
    }
    if (!(await this.caldavConnection.connected(userId))) return this.google.normalizedAcrossCalendars(userId, range, force);
    const [google, caldav] = await Promise.all([
      this.google
        .normalizedAcrossCalendars(userId, range, force)
        .then((view) => JSON.parse(view.body.toString('utf8')) as CalendarEvent[])
        .catch((error: unknown) => {
          if (error instanceof AppError && GOOGLE_ABSENT.has(error.code)) return [];
          throw error;
        }),
      this.caldav.events(userId, range, force),
    ]);
    const merged = [...google, ...caldav].sort((a, b) => startOf(a) - startOf(b) || a.id.localeCompare(b.id));
    return jsonView(JSON.stringify(merged));
  }

  async create(userId: string, calendarId: string, body: EventBody): Promise<GoogleEvent> {
    if (await this.caldav.owns(userId, calendarId)) return this.caldav.create(userId, calendarId, body);
    return this.google.create(userId, calendarId, body);
  }

  async update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<GoogleEvent> {
    if (await this.caldav.owns(userId, calendarId)) return this.caldav.update(userId, calendarId, eventId, body);
    return this.google.update(userId, calendarId, eventId, body);
  }

  async delete(userId: string, calendarId: string, eventId: string): Promise<void> {
    if (await this.caldav.owns(userId, calendarId)) return this.caldav.delete(userId, calendarId, eventId);
    return this.google.delete(userId, calendarId, eventId);
  }
}
