import { Type } from '@sinclair/typebox';
import {
  MicrosoftCalendar,
  MicrosoftCalendarEvent,
  MicrosoftCalendarEventList,
  MicrosoftEventBody,
  MicrosoftEventParams,
  MicrosoftEventQuery,
  MicrosoftEventsQuery,
  TeamsMeeting,
  TeamsMeetingBody,
  TeamsStatus,
} from '../teams.js';
import { route } from './route.js';

export const MicrosoftCalendarList = Type.Array(MicrosoftCalendar);

/** The teams service's routes other services call (Outlook calendars under /microsoft, the spec's name). */
export const teamsRoutes = {
  status: route({ service: 'teams', method: 'GET', path: '/teams/status', response: TeamsStatus }),
  createMeeting: route({ service: 'teams', method: 'POST', path: '/teams/meetings', body: TeamsMeetingBody, response: TeamsMeeting }),
  calendars: route({ service: 'teams', method: 'GET', path: '/microsoft/calendars', response: MicrosoftCalendarList }),
  events: route({ service: 'teams', method: 'GET', path: '/microsoft/events', query: MicrosoftEventsQuery, response: MicrosoftCalendarEventList }),
  createEvent: route({ service: 'teams', method: 'POST', path: '/microsoft/events', body: MicrosoftEventBody, response: MicrosoftCalendarEvent }),
  updateEvent: route({ service: 'teams', method: 'PUT', path: '/microsoft/events/:eventId', params: MicrosoftEventParams, body: MicrosoftEventBody, response: MicrosoftCalendarEvent }),
  deleteEvent: route({ service: 'teams', method: 'DELETE', path: '/microsoft/events/:eventId', params: MicrosoftEventParams, query: MicrosoftEventQuery, response: Type.Null() }),
};
