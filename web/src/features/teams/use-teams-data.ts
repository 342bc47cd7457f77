import { useCallback, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/errors';
import { getChannels, getMeetings, getTeams, type TeamsChannel, type TeamsMeeting, type TeamsTeam } from './api';

export interface Loadable<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  /** The server's error code, e.g. MICROSOFT_RECONNECT when the Microsoft session must be renewed. */
  code?: string;
}

const idle = <T,>(): Loadable<T> => ({ data: null, error: null, loading: false });
const loading = <T,>(): Loadable<T> => ({ data: null, error: null, loading: true });

/**
 * Teams, the selected team's channels (spec: selecting a team loads its channels and selects the first) and
 * the upcoming meetings. A failed load says so where the data would be; nothing stale is shown as current.
 */
export function useTeamsData(connected: boolean) {
  const [teams, setTeams] = useState<Loadable<TeamsTeam[]>>(idle);
  const [teamId, setTeamId] = useState<string | null>(null);
  const [channels, setChannels] = useState<Loadable<TeamsChannel[]>>(idle);
  const [channelId, setChannelId] = useState<string | null>(null);
  const [meetings, setMeetings] = useState<Loadable<TeamsMeeting[]>>(idle);

  const loadMeetings = useCallback(async () => {
    setMeetings((m) => ({ ...m, loading: true, error: null }));
    try {
      setMeetings({ data: (await getMeetings()).meetings, error: null, loading: false });
    } catch (err) {
      console.error('No se pudieron cargar las reuniones de Teams', err);
      setMeetings({ data: null, error: errorMessage(err), loading: false });
    }
  }, []);

  const loadTeams = useCallback(async () => {
    setTeams(loading);
    try {
      const list = await getTeams();
      setTeams({ data: list, error: null, loading: false });
      setTeamId((current) => (current && list.some((t) => t.id === current) ? current : (list[0]?.id ?? null)));
    } catch (err) {
      console.error('No se pudieron cargar los equipos de Teams', err);
      setTeams({ data: null, error: errorMessage(err), loading: false, code: err instanceof ApiError ? err.code : '' });
    }
  }, []);

  useEffect(() => {
    if (!connected) {
      // Spec: disconnect clears teams, channels and selection.
      setTeams(idle);
      setTeamId(null);
      setChannels(idle);
      setChannelId(null);
      setMeetings(idle);
      return;
    }
    void loadTeams();
    void loadMeetings();
  }, [connected, loadTeams, loadMeetings]);

  useEffect(() => {
    if (!teamId) return undefined;
    let current = true;
    setChannels(loading);
    setChannelId(null);
    getChannels(teamId).then(
      (list) => {
        if (!current) return;
        setChannels({ data: list, error: null, loading: false });
        setChannelId(list[0]?.id ?? null);
      },
      (err: unknown) => {
        console.error('No se pudieron cargar los canales', err);
        if (current) setChannels({ data: null, error: errorMessage(err), loading: false });
      },
    );
    return () => {
      current = false;
    };
  }, [teamId]);

  return { teams, teamId, selectTeam: setTeamId, channels, channelId, selectChannel: setChannelId, meetings, loadMeetings, loadTeams };
}
