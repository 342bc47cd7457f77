import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import {
  getCaldavCalendars,
  getCaldavStatus,
  getGoogleCalendars,
  getGoogleEvents,
  getGoogleStatus,
  getLocalEvents,
  getTeamsCalendars,
  getTeamsEvents,
  getTeamsStatus,
  type CaldavCalendarEntry,
  type CaldavStatus,
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
  caldavStatus: CaldavStatus | null;
  googleCalendars: GoogleCalendarEntry[];
  /** Null while not known (CalDAV not connected, or its list not read): only [] says the server has none. */
  caldavCalendars: CaldavCalendarEntry[] | null;
  teamsCalendars: MicrosoftCalendar[];
  events: SourceEvent[];
  loading: boolean;
  error: string | null;
  /**
   * Why the source shows nothing: no calendar at all (the merged tab: any provider will do), the tab's own
   * provider not connected (with where to connect), or null.
   */
  hint: 'calendar' | 'google' | 'google-reconnect' | 'teams' | null;
  loadedAt: Date | null;
}

const initial: CalendarData = {
  googleStatus: null,
  teamsStatus: null,
  caldavStatus: null,
  googleCalendars: [],
  caldavCalendars: null,
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
    // CalDAV's calendars, on every tab (its card says when the server has none); forced, the server is asked.
    const caldavCalendars = async (status: CaldavStatus | null) => (status?.connected ? getCaldavCalendars(force) : null);
    // Both provider cards show their status on every tab: the other provider's status is asked in parallel
    // (and, off the Teams tab, the Outlook calendars a new event may go to).
    const otherStatus: Promise<Partial<CalendarData>> =
      source === 'teams'
        ? Promise.all([
            getGoogleStatus().then((googleStatus) => ({ googleStatus }), () => ({})),
            getCaldavStatus().then(
              async (caldavStatus) => ({ caldavStatus, caldavCalendars: await caldavCalendars(caldavStatus).catch(() => null) }),
              () => ({ caldavStatus: null, caldavCalendars: null }),
            ),
          ]).then(([google, caldav]) => ({ ...google, ...caldav }))
        : getTeamsStatus().then(
            // Outlook calendars are listed too: Nuevo evento can put an event in one of them.
            async (teamsStatus) => ({ teamsStatus, teamsCalendars: teamsStatus?.connected ? await getTeamsCalendars().catch(() => []) : [] }),
            () => ({ teamsStatus: null, teamsCalendars: [] }),
          );
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
          const [googleStatus, caldavStatus] = await Promise.all([getGoogleStatus(), getCaldavStatus().catch(() => null)]);
          next = { ...next, googleStatus, caldavStatus };
          // The local source merges every provider on the server: CalDAV or Outlook alone is enough to show it.
          const caldav = source === 'local' && caldavStatus?.connected === true;
          const outlook = source === 'local' && (await otherStatus).teamsStatus?.connected === true;
          if (!googleStatus.connected && !caldav && !outlook) {
            const hint = googleStatus.needsReconnect ? 'google-reconnect' : source === 'local' ? 'calendar' : 'google';
            next = { ...next, hint, events: [], googleCalendars: [], caldavCalendars: await caldavCalendars(caldavStatus) };
          } else {
            const [calendars, events, caldavList] = await Promise.all([
              googleStatus.connected ? getGoogleCalendars(force) : Promise.resolve([]),
              source === 'local' ? getLocalEvents(range, force) : getGoogleEvents(googleCalendar, range, force),
              caldavCalendars(caldavStatus),
            ]);
            next = { ...next, googleCalendars: calendars, events, caldavCalendars: caldavList };
          }
        }
        next = { ...next, ...(await otherStatus) };
        if (current()) setData((d) => ({ ...d, ...next, loading: false, error: null, loadedAt: new Date() }));
      } catch (err) {
        console.error('No se pudieron cargar los eventos del calendario', err);
        next = { ...next, ...(await otherStatus) };
        if (current()) {
          setData((d) => ({ ...d, ...next, events: [], googleCalendars: [], teamsCalendars: [], caldavCalendars: null, loading: false, error: errorMessage(err) }));
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
