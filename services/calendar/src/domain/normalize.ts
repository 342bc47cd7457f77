import type { CalendarEvent } from '@asistente/contracts';
import { lastDay } from './dates.js';
import type { EventRecord } from './event-record.js';

export const UNTITLED = '(sin título)';

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
