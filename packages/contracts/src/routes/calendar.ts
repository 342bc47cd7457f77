import { AttendeeEventsQuery, CalendarEventList, CalendarProviders, DateRangeQuery, FreeSlotList, FreeSlotsQuery, GoogleEvent, LocalEventBody } from '../calendar.js';
import { MeetingProviderChoice, VideoMeeting, VideoMeetingBody } from '../meetings.js';
import { route } from './route.js';

/** The calendar service's routes other services call. */
export const calendarRoutes = {
  events: route({ service: 'calendar', method: 'GET', path: '/events', query: DateRangeQuery, response: CalendarEventList }),
  createEvent: route({ service: 'calendar', method: 'POST', path: '/events', body: LocalEventBody, response: GoogleEvent }),
  withAttendee: route({ service: 'calendar', method: 'GET', path: '/events/with-attendee', query: AttendeeEventsQuery, response: CalendarEventList }),
  freeSlots: route({ service: 'calendar', method: 'GET', path: '/events/free-slots', query: FreeSlotsQuery, response: FreeSlotList }),
  providers: route({ service: 'calendar', method: 'GET', path: '/events/providers', response: CalendarProviders }),
  createMeeting: route({ service: 'calendar', method: 'POST', path: '/meetings', body: VideoMeetingBody, response: VideoMeeting }),
  meetingProvider: route({ service: 'calendar', method: 'GET', path: '/meetings/provider', response: MeetingProviderChoice }),
};
