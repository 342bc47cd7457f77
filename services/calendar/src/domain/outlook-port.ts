import type { EventBody, MicrosoftCalendar, MicrosoftCalendarEvent } from '@asistente/contracts';
import type { Range } from './dates.js';

/**
 * The user's Outlook calendars as the calendar service reaches them. The Microsoft connection (its sealed
 * tokens, its refresh, Graph itself) stays with the teams service, which also needs it for teams, channels
 * and online meetings; this port asks teams for calendar data only, so the calendar service never holds a
 * Microsoft token. The adapter is adapters/teams-outlook.ts.
 */
export interface OutlookCalendars {
  /** Whether the user may have Microsoft connected: false only when teams is not there or says it is not. */
  connected(userId: string): Promise<boolean>;
  /** Whether teams answered that the user has Microsoft connected (false when it cannot tell). */
  confirmed(userId: string): Promise<boolean>;
  calendars(userId: string): Promise<MicrosoftCalendar[]>;
  /**
   * The events of one calendar (the default one without `calendarId`) overlapping the range, as teams
   * answers them: all-day ends still exclusive, as Graph keeps them. Throws AppError.
   */
  events(userId: string, range: Range, calendarId?: string): Promise<MicrosoftCalendarEvent[]>;
  /**
   * Writes through teams' own routes (Graph with the user's own token: another user's event is a 404). Without
   * `calendarId` the default calendar; the answer names the calendar by its id and keeps Graph's exclusive end.
   */
  create(userId: string, calendarId: string | undefined, body: EventBody): Promise<MicrosoftCalendarEvent>;
  update(userId: string, calendarId: string, eventId: string, body: EventBody): Promise<MicrosoftCalendarEvent>;
  remove(userId: string, calendarId: string, eventId: string): Promise<void>;
}

/** What free slots read of an Outlook event. */
export interface OutlookTimes {
  startTime: string;
  endTime: string;
  allDay: boolean;
  status: string;
}
