import type { EventBody } from '@asistente/contracts';
import type { AppError } from '@asistente/kit';
import type { CalendarSyncService } from '../../../domain/calendar-sync.service.js';
import { eventInput } from '../../../domain/event-form.js';
import type { EventRecord } from '../../../domain/event-record.js';
import type { EventsService } from '../../../domain/events.service.js';
import type { GoogleConnectionService } from '../../../domain/google-connection.service.js';
import { notConfigured, toAppError } from '../../../domain/provider-errors.js';
import type { GoogleCalendar } from './api.js';
import type { GoogleOAuth } from './oauth.js';

/**
 * The user's Google client, for the writes (Google's calendar, the Google Calendar screen, Google Meet): Google
 * first, then the domain's mirror with the domain event. Reads go through the mirror.
 */
export class GoogleWrites {
  constructor(
    private readonly connection: GoogleConnectionService,
    private readonly oauth: GoogleOAuth | undefined,
    private readonly sync: CalendarSyncService,
    private readonly events: EventsService,
  ) {}

  /** One call of the user's Google client; a revoked grant marks the account, any failure is in the user's words. */
  async call<T>(userId: string, work: (api: GoogleCalendar) => Promise<T>, notFound?: () => AppError): Promise<T> {
    if (!this.oauth) throw notConfigured();
    const { tokens, onRefresh } = await this.connection.session(userId);
    const api = this.oauth.calendar(tokens, onRefresh);
    return this.connection.guard(userId, () => work(api)).catch((e: unknown) => Promise.reject(toAppError(e, notFound)));
  }

  async create(userId: string, calendarId: string, body: EventBody): Promise<EventRecord> {
    const input = eventInput(body);
    const calendar = await this.sync.calendar(userId, calendarId);
    const created = await this.call(userId, (api) => api.createEvent(calendar.id, input));
    await this.events.recorded(userId, created, 'calendar.event.created');
    return created;
  }

  async update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<EventRecord> {
    const input = eventInput(body);
    const calendar = await this.sync.calendar(userId, calendarId);
    const updated = await this.call(userId, (api) => api.updateEvent(calendar.id, eventId, input));
    await this.events.recorded(userId, updated, 'calendar.event.updated');
    return updated;
  }

  async delete(userId: string, calendarId: string, eventId: string): Promise<void> {
    const calendar = await this.sync.calendar(userId, calendarId);
    await this.call(userId, (api) => api.deleteEvent(calendar.id, eventId));
    await this.events.removed(userId, calendar.id, eventId);
  }
}
