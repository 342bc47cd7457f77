import type { CalendarEvent, GoogleEvent, MicrosoftCalendarEvent } from '@asistente/contracts';
import type { BusyTime } from './calendar-registry.js';
import { lastDay } from './normalize.js';
import type { OutlookTimes } from './outlook-port.js';

/**
 * An Outlook event as every provider's normalised event is: Graph keeps an all-day event's end exclusive
 * (the next midnight), the spec's event shows the last day it covers. Done here, once, on the server.
 */
export function fromOutlook(event: MicrosoftCalendarEvent): CalendarEvent {
  if (!event.allDay) return event;
  const endDate = lastDay(event.startDate, event.endDate || null);
  return { ...event, endDate, endTime: endDate };
}

/**
 * An Outlook event just written, as /events answers every provider's writes (the Google Calendar screen's
 * event): Google's own start/end pair keeps the exclusive all-day end, as Google's and CalDAV's do.
 */
export function outlookScreenEvent(event: MicrosoftCalendarEvent): GoogleEvent {
  const normal = fromOutlook(event);
  return {
    ...normal,
    summary: event.title,
    start: event.allDay ? { date: event.startDate } : { dateTime: event.startTime },
    end: event.allDay ? { date: event.endDate } : { dateTime: event.endTime },
    hangoutLink: null,
    htmlLink: null,
  };
}

/** Timed events that are not cancelled take the user's time; all-day ones do not (as with Google's default). */
export function outlookBusy(events: readonly OutlookTimes[]): BusyTime[] {
  return events
    .filter((e) => !e.allDay && e.status !== 'cancelled')
    .map((e) => ({ start: Date.parse(e.startTime), end: Date.parse(e.endTime) }))
    .filter((b) => Number.isFinite(b.start) && Number.isFinite(b.end) && b.end > b.start);
}
