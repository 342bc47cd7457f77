import type { GoogleCalendarEntry, GoogleEvent, GoogleStatus, Meeting, MeetingList } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';

export { createGoogleMeeting as createMeeting, getGoogleStatus as getStatus, type GoogleMeetingForm as MeetingForm } from '../../lib/meetings';

export type { GoogleCalendarEntry, GoogleEvent, GoogleStatus, Meeting };

/** Google events listed in the middle column, meetings in the right one (spec section 9). */
export const UPCOMING_EVENTS = 10;
export const MEETINGS_SHOWN = 5;

export const getConnectUrl = () => getJson<{ url: string }>('google/redirect');
export const disconnect = () => sendJson<{ success: true }>('post', 'google/google-calendar/disconnect', {});
export const listCalendars = () => getJson<GoogleCalendarEntry[]>('google/google-calendar/calendars');

/** Upcoming events of a calendar, from now on. */
export const listUpcoming = (calendarId: string) =>
  getJson<GoogleEvent[]>(`google/google-calendar/calendars/${encodeURIComponent(calendarId)}/events`, {
    searchParams: { startDate: new Date().toISOString(), maxResults: UPCOMING_EVENTS },
  });

export interface EventForm {
  title: string;
  startTime: string;
  endTime: string;
  description: string;
  location: string;
}

export const createEvent = (calendarId: string, form: EventForm) =>
  sendJson<GoogleEvent>('post', `google/google-calendar/calendars/${encodeURIComponent(calendarId)}/events`, form);

export const listMeetings = () => getJson<MeetingList>('google/google-meet/meetings', { searchParams: { page: 1, limit: MEETINGS_SHOWN } });
