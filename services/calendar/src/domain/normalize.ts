import type { CalendarEvent, GoogleEvent } from '@asistente/contracts';
import type { EventRecord } from './event-record.js';

const DAY_MS = 86_400_000;
export const UNTITLED = '(sin título)';

/** A provider's exclusive all-day end (Google's, Graph's), shown as the last day the event covers. */
export function lastDay(startDate: string, endDate: string | null): string {
  if (!endDate) return startDate;
  const previous = new Date(Date.parse(`${endDate}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  return previous < startDate ? startDate : previous;
}

/** The spec's normalised event (section 3) of a mirrored Google event. */
export function toCalendarEvent(record: EventRecord): CalendarEvent {
  const allDay = record.allDay && record.startDate !== null;
  const startDate = allDay ? record.startDate! : record.startAt.toISOString();
  const endDate = allDay ? lastDay(record.startDate!, record.endDate) : record.endAt.toISOString();
  return {
    id: record.id,
    title: record.summary?.trim() ? record.summary : UNTITLED,
    description: record.description ?? '',
    startDate,
    endDate,
    startTime: startDate,
    endTime: endDate,
    location: record.location ?? '',
    attendees: record.attendees,
    type: allDay ? 'reminder' : 'meeting',
    status: record.status || 'confirmed',
    createdAt: record.createdAt?.toISOString() ?? null,
    updatedAt: record.updatedAt?.toISOString() ?? null,
    source: 'google',
    isRecurring: record.recurrence !== null || record.recurringEventId !== null,
    recurrencePattern: record.recurrence?.join('\n') ?? null,
    allDay,
    calendarId: record.calendarId,
  };
}

/** The Google Calendar screen's event: the normalised one plus Google's start/end and the video link. */
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
