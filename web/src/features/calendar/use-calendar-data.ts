import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import {
  getGoogleCalendars,
  getGoogleEvents,
  getGoogleStatus,
  getLocalEvents,
  getTeamsCalendars,
  getTeamsEvents,
  getTeamsStatus,
  type GoogleCalendarEntry,
  type GoogleStatus,
  type MicrosoftCalendar,
  type SourceEvent,
  type TeamsStatus,
} from './api';
import { monthRange } from './month';

export type Source = 'local' | 'google' | 'teams';

export interface CalendarData {
  googleStatus: GoogleStatus | null;
  teamsStatus: TeamsStatus | null;
  googleCalendars: GoogleCalendarEntry[];
  teamsCalendars: MicrosoftCalendar[];
  events: SourceEvent[];
  loading: boolean;
  error: string | null;
  /** Why the source shows nothing: not connected (with where to connect), or null. */
  hint: 'google' | 'google-reconnect' | 'teams' | null;
  loadedAt: Date | null;
}

const initial: CalendarData = {
  googleStatus: null,
  teamsStatus: null,
  googleCalendars: [],
  teamsCalendars: [],
  events: [],
  loading: true,
  error: null,
  hint: null,
  loadedAt: null,
};

/**
 * The Calendario screen's data: statuses, calendar lists and the shown month's events of the chosen source.
 * Reloads on a change of month, source or selected calendar and on refresh; a failure empties the events
 * and calendar lists (spec) and says why.
 */
export function useCalendarData(source: Source, month: Date, googleCalendar: string, teamsCalendar: string | null) {
  const [data, setData] = useState<CalendarData>(initial);
  const [version, setVersion] = useState(0);
  /** The next load bypasses the one-minute freshness of the mirror (force refresh), once. */
  const forceNext = useRef(false);
  const request = useRef(0);

  useEffect(() => {
    const id = ++request.current;
    const current = () => id === request.current;
    const force = forceNext.current;
    forceNext.current = false;
    const range = monthRange(month);
    setData((d) => ({ ...d, loading: true, error: null }));
    // Both provider cards show their status on every tab: the other provider's status is asked in parallel.
    const otherStatus: Promise<Partial<CalendarData>> =
      source === 'teams'
        ? getGoogleStatus().then((googleStatus) => ({ googleStatus }), () => ({}))
        : getTeamsStatus().then((teamsStatus) => ({ teamsStatus }), () => ({ teamsStatus: null }));
    void (async () => {
      let next: Partial<CalendarData> = { hint: null };
      try {
        if (source === 'teams') {
          const teamsStatus = await getTeamsStatus().catch(() => null);
          next.teamsStatus = teamsStatus;
          if (!teamsStatus?.connected) next = { ...next, hint: 'teams', events: [], teamsCalendars: [] };
          else {
            const [calendars, events] = await Promise.all([getTeamsCalendars(), getTeamsEvents(teamsCalendar, range)]);
            next = { ...next, teamsCalendars: calendars, events };
          }
        } else {
          const googleStatus = await getGoogleStatus();
          next.googleStatus = googleStatus;
          if (!googleStatus.connected) {
            next = { ...next, hint: googleStatus.needsReconnect ? 'google-reconnect' : 'google', events: [], googleCalendars: [] };
          } else {
            const [calendars, events] = await Promise.all([
              getGoogleCalendars(force),
              source === 'local' ? getLocalEvents(range, force) : getGoogleEvents(googleCalendar, range, force),
            ]);
            next = { ...next, googleCalendars: calendars, events };
          }
        }
        next = { ...next, ...(await otherStatus) };
        if (current()) setData((d) => ({ ...d, ...next, loading: false, error: null, loadedAt: new Date() }));
      } catch (err) {
        console.error('No se pudieron cargar los eventos del calendario', err);
        next = { ...next, ...(await otherStatus) };
        if (current()) {
          setData((d) => ({ ...d, ...next, events: [], googleCalendars: [], teamsCalendars: [], loading: false, error: errorMessage(err) }));
        }
      }
    })();
  }, [source, month, googleCalendar, teamsCalendar, version]);

  const reload = useCallback((force = false) => {
    forceNext.current = force;
    setVersion((v) => v + 1);
  }, []);
  return { ...data, reload };
}
