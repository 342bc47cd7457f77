import type { CaldavCalendarEntry, CaldavConnectBody, CaldavConnectResponse, CaldavStatus, CalendarEvent, GoogleCalendarEntry, GoogleStatus } from '@asistente/contracts';
import { getJson, getJsonIfAvailable, sendDelete, sendJson } from '../../lib/http';

export type { CaldavCalendarEntry, CaldavStatus, GoogleCalendarEntry, GoogleStatus };

/** A Microsoft (Outlook) calendar as the Teams service lists it (spec section 3); its id is a calendarId of /events. */
export interface MicrosoftCalendar {
  id: string;
  name: string;
  color: string;
}

/** The normalised event of every source (Microsoft's also carries a join link). */
export type SourceEvent = CalendarEvent;

export interface TeamsStatus {
  connected: boolean;
  configured?: boolean;
}

export interface Range {
  dateFrom: string;
  dateTo: string;
}

const withRefresh = (range: Range, refresh: boolean): Record<string, string> => ({ ...range, ...(refresh ? { refresh: 'true' } : {}) });

export const getGoogleStatus = () => getJson<GoogleStatus>('google/google-calendar/status');
export const getGoogleCalendars = (refresh = false) =>
  getJson<GoogleCalendarEntry[]>('google/calendars', refresh ? { searchParams: { refresh: 'true' } } : {});

/** One Google calendar's events of the range ('primary' by default, spec section 4). */
export const getGoogleEvents = (calendarId: string, range: Range, refresh = false) =>
  getJson<SourceEvent[]>(`google/events/calendar/${encodeURIComponent(calendarId)}`, { searchParams: withRefresh(range, refresh) });

/** The "local" source: every mirrored calendar at once (Google's and CalDAV's, merged by the server). */
export const getLocalEvents = (range: Range, refresh = false) => getJson<SourceEvent[]>('events', { searchParams: withRefresh(range, refresh) });

/** null while the Teams service does not answer this route yet (a 404): shown as "not connected". */
export const getTeamsStatus = () => getJsonIfAvailable<TeamsStatus>('teams/status');
export const getTeamsCalendars = () => getJson<MicrosoftCalendar[]>('msteams/calendar/calendars');
/**
 * Outlook events through the provider-neutral /events: one calendar's with an id, every Outlook calendar's
 * without one (a calendar Graph refuses leaves only its own events out). Normalised by the calendar service
 * like every source; written through createEvent/updateEvent/deleteEvent with the event's calendarId.
 */
export const getTeamsEvents = (calendarId: string | null, range: Range) =>
  getJson<SourceEvent[]>('events', { searchParams: { ...range, source: 'msteams', ...(calendarId ? { calendarId } : {}) } });

export interface EventForm {
  title: string;
  /** Instants, or with `allDay` the first and last day (YYYY-MM-DD, the last one inclusive). */
  startTime: string;
  endTime: string;
  description: string;
  location: string;
  allDay: boolean;
}

export const createEvent = (calendarId: string, form: EventForm) => sendJson<SourceEvent>('post', 'events', { ...form, calendarId });
export const updateEvent = (id: string, calendarId: string, form: EventForm) =>
  sendJson<SourceEvent>('put', `events/${encodeURIComponent(id)}`, { ...form, calendarId });
export const deleteEvent = (id: string, calendarId: string) =>
  sendDelete(`events/${encodeURIComponent(id)}?calendarId=${encodeURIComponent(calendarId)}`);

export const getCaldavStatus = () => getJson<CaldavStatus>('caldav/status');
/** With `refresh`, the server is asked for its calendar list (calendars made or removed there since). */
export const getCaldavCalendars = (refresh = false) =>
  getJson<CaldavCalendarEntry[]>('caldav/calendars', refresh ? { searchParams: { refresh: 'true' } } : {});
export const createCaldavCalendar = (name: string) => sendJson<CaldavCalendarEntry>('post', 'caldav/calendars', { name });
export const connectCaldav = (body: CaldavConnectBody) => sendJson<CaldavConnectResponse>('post', 'caldav/connect', body);
export const disconnectCaldav = () => sendJson<{ success: true }>('post', 'caldav/disconnect', {});
