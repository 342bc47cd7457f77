import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { listCalendars, listMeetings, listUpcoming, UPCOMING_EVENTS, type GoogleCalendarEntry, type GoogleEvent, type Meeting } from './api';

interface Loaded<T> {
  data: T | null;
  error: string | null;
}

const empty = { data: null, error: null };

/**
 * Calendars, the selected calendar's upcoming events and the Meet meetings of a connected account. The
 * primary calendar (or else the first) is selected by default; failures show where the data would be.
 */
export function useGoogleData(connected: boolean) {
  const [calendars, setCalendars] = useState<Loaded<GoogleCalendarEntry[]>>(empty);
  const [selected, setSelected] = useState<string | null>(null);
  const [events, setEvents] = useState<Loaded<GoogleEvent[]>>(empty);
  const [meetings, setMeetings] = useState<Loaded<Meeting[]>>(empty);

  useEffect(() => {
    if (!connected) {
      setCalendars(empty);
      setSelected(null);
      setEvents(empty);
      setMeetings(empty);
      return;
    }
    listCalendars().then(
      (list) => {
        setCalendars({ data: list, error: null });
        setSelected((current) => current ?? (list.find((c) => c.primary) ?? list[0])?.id ?? null);
      },
      (err: unknown) => {
        console.error('No se pudieron cargar los calendarios de Google', err);
        setCalendars({ data: null, error: errorMessage(err) });
      },
    );
  }, [connected]);

  const loadEvents = useCallback(() => {
    if (!selected) return;
    setEvents(empty);
    listUpcoming(selected).then(
      (list) => setEvents({ data: list.slice(0, UPCOMING_EVENTS), error: null }),
      (err: unknown) => {
        console.error('No se pudieron cargar los eventos de Google', err);
        setEvents({ data: null, error: errorMessage(err) });
      },
    );
  }, [selected]);

  const loadMeetings = useCallback(() => {
    if (!connected) return;
    listMeetings().then(
      (page) => setMeetings({ data: page.meetings, error: null }),
      (err: unknown) => {
        console.error('No se pudieron cargar las reuniones de Meet', err);
        setMeetings({ data: null, error: errorMessage(err) });
      },
    );
  }, [connected]);

  useEffect(loadEvents, [loadEvents]);
  useEffect(loadMeetings, [loadMeetings]);

  return { calendars, selected, setSelected, events, meetings, loadEvents, loadMeetings };
}
