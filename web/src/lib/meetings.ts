import type { GoogleStatus, Meeting, TeamsMeeting, TeamsStatus } from '@asistente/contracts';
import { getJson, sendJson } from './http';

// Meeting calls shared by the Google Calendar and Teams screens and by "Programar reunión" on a contact's
// page (features do not import each other, so the calls live here).

export const getGoogleStatus = () => getJson<GoogleStatus>('google/google-calendar/status');
export const getTeamsStatus = () => getJson<TeamsStatus>('teams/status');

export interface GoogleMeetingForm {
  title: string;
  startTime: string;
  endTime: string;
  attendees: string[];
  description: string;
}

export const createGoogleMeeting = (form: GoogleMeetingForm) => sendJson<Meeting>('post', 'google/google-meet/create', form);

export interface TeamsMeetingForm {
  title: string;
  startTime: string;
  endTime: string;
  attendees: string[];
}

export const createTeamsMeeting = (meeting: TeamsMeetingForm) => sendJson<TeamsMeeting>('post', 'teams/meetings', meeting);
