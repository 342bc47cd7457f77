import { EVENT_TITLE_MAX, type CalendarSourceName } from '@asistente/contracts';
import { createEvent, type EventEnvelope } from '@asistente/kit';
/**
 * One calendar event as the mirror keeps it, whatever provider it came from. Timed events carry their instants;
 * all-day events carry their dates (provider's exclusive end) and, for range queries, the UTC bounds of those days.
 */
export interface EventRecord {
  id: string;
  calendarId: string;
  summary: string | null;
  description: string | null;
  location: string | null;
  allDay: boolean;
  startAt: Date;
  endAt: Date;
  /** YYYY-MM-DD, all-day events only. */
  startDate: string | null;
  /** YYYY-MM-DD, exclusive (the day after the last one), all-day events only. */
  endDate: string | null;
  attendees: string[];
  status: string;
  /** 'transparent' events do not block time (free/busy). */
  transparency: string | null;
  recurrence: string[] | null;
  recurringEventId: string | null;
  hangoutLink: string | null;
  htmlLink: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
}

/** When an entry happens, as its `calendar.event.*` event tells the webhooks (an all-day one's UTC midnights). */
export function entryTimes(record: Pick<EventRecord, 'startAt' | 'endAt' | 'allDay'>): { startAt: string; endAt: string; allDay: boolean } {
  return { startAt: record.startAt.toISOString(), endAt: record.endAt.toISOString(), allDay: record.allDay };
}

/**
 * The `calendar.event.created|updated` an event tells the webhooks, the same whether the product wrote it or a
 * sync found another app's change.
 */
export function eventChanged(type: 'calendar.event.created' | 'calendar.event.updated', userId: string, source: CalendarSourceName, event: EventRecord): EventEnvelope {
  return createEvent(type, userId, { eventId: event.id, source, title: (event.summary ?? '').slice(0, EVENT_TITLE_MAX), ...entryTimes(event) });
}

/** What the product writes to a provider's calendar. */
export interface EventInput {
  title: string;
  /** Timed: instants. All-day: midnight UTC of the first day and of the day after the last (Google's end). */
  startTime: Date;
  endTime: Date;
  allDay?: boolean | undefined;
  description?: string | undefined;
  location?: string | undefined;
  attendees?: string[] | undefined;
}

export interface CalendarRecord {
  id: string;
  summary: string;
  backgroundColor: string | null;
  primary: boolean;
  accessRole: string | null;
}
