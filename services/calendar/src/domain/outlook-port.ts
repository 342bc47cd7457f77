import type { MicrosoftCalendar, MicrosoftCalendarEvent } from '@asistente/contracts';
import type { Range } from './dates.js';

/**
 * The user's Outlook calendars as the calendar service reaches them. The Microsoft connection (its sealed
 * tokens, its refresh, Graph itself) stays with the teams service, which also needs it for teams, channels
 * and online meetings; this port asks teams for calendar data only, so the calendar service never holds a
 * Microsoft token. The adapter is adapters/teams-outlook.ts.
 */
export interface OutlookCalendars {
  /** Whether the user has Microsoft connected (false when the teams service is not there to ask). */
  connected(userId: string): Promise<boolean>;
  calendars(userId: string): Promise<MicrosoftCalendar[]>;
  /**
   * The events of one calendar (the default one without `calendarId`) overlapping the range, as teams
   * answers them: all-day ends still exclusive, as Graph keeps them. Throws AppError.
   */
  events(userId: string, range: Range, calendarId?: string, timeoutMs?: number): Promise<MicrosoftCalendarEvent[]>;
}
