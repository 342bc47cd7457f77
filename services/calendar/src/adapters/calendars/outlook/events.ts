import type { MicrosoftCalendarEvent } from '@asistente/contracts';
import type { BusyTime, ProviderEvent } from '../../../domain/calendars/calendar-port.js';
import { lastDay } from '../../../domain/dates.js';

/**
 * teams' answer as the port's event: Graph keeps an all-day event's end exclusive (the next midnight), the
 * port's event shows the last day it covers.
 */
export function fromOutlook(event: MicrosoftCalendarEvent): ProviderEvent {
  const { source: _source, ...normal } = event;
  if (!event.allDay) return normal;
  const endDate = lastDay(event.startDate, event.endDate || null);
  return { ...normal, endDate, endTime: endDate };
}

/** Timed events that are not cancelled take the user's time; all-day ones do not (as with Google's default). */
export function outlookBusy(events: readonly ProviderEvent[]): BusyTime[] {
  return events
    .filter((e) => !e.allDay && e.status !== 'cancelled')
    .map((e) => ({ start: Date.parse(e.startTime), end: Date.parse(e.endTime) }))
    .filter((b) => Number.isFinite(b.start) && Number.isFinite(b.end) && b.end > b.start);
}
