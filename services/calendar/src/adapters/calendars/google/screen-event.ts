import type { GoogleEvent } from '@asistente/contracts';
import type { EventRecord } from '../../../domain/event-record.js';
import { toCalendarEvent } from '../../../domain/normalize.js';

/** The Google Calendar screen's event (spec section 7): the normalised one plus Google's start/end and links. */
export function toGoogleEvent(record: EventRecord): GoogleEvent {
  const allDay = record.allDay && record.startDate !== null;
  return {
    ...toCalendarEvent(record),
    summary: record.summary,
    start: allDay ? { date: record.startDate! } : { dateTime: record.startAt.toISOString() },
    end: allDay ? { date: record.endDate ?? record.startDate! } : { dateTime: record.endAt.toISOString() },
    hangoutLink: record.hangoutLink,
    htmlLink: record.htmlLink,
  };
}
