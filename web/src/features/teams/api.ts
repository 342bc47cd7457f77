import type { TeamsChannel, TeamsMeeting, TeamsMeetingList, TeamsMessage, TeamsStatus, TeamsTeam } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';

export type { TeamsChannel, TeamsMeeting, TeamsMessage, TeamsStatus, TeamsTeam };

export { createTeamsMeeting as createMeeting, getTeamsStatus as getStatus, type TeamsMeetingForm as NewMeeting } from '../../lib/meetings';

/** Spec: the first 5 upcoming meetings show on the screen. */
export const MEETINGS_SHOWN = 5;

export const startConnect = () => sendJson<{ authUrl: string }>('post', 'teams/connect', {});
export const disconnect = () => sendJson<{ success: true }>('post', 'teams/disconnect', {});
export const getTeams = () => getJson<TeamsTeam[]>('teams');
export const getChannels = (teamId: string) => getJson<TeamsChannel[]>(`teams/${encodeURIComponent(teamId)}/channels`);
export const getMessages = (channelId: string, signal?: AbortSignal) =>
  getJson<TeamsMessage[]>(`teams/channels/${encodeURIComponent(channelId)}/messages`, signal ? { signal } : {});
export const postMessage = (channelId: string, message: string) =>
  sendJson<TeamsMessage>('post', `teams/channels/${encodeURIComponent(channelId)}/messages`, { message });
export const getMeetings = () => getJson<TeamsMeetingList>('teams/meetings', { searchParams: { page: 1, limit: MEETINGS_SHOWN } });
