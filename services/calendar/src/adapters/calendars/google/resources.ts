import { randomUUID } from 'node:crypto';
import type { calendar_v3 } from '@googleapis/calendar';
import type { CalendarRecord, EventInput, EventRecord } from '../../../domain/event-record.js';

const DAY_MS = 86_400_000;

const nonEmpty = (value: string | null | undefined): string | null => (value ? value : null);
const instant = (value: string | null | undefined): Date | null => (value ? new Date(value) : null);

/** The video link of an event: Google's hangoutLink, or the video entry point of its conference data. */
function meetUrl(event: calendar_v3.Schema$Event): string | null {
  if (event.hangoutLink) return event.hangoutLink;
  const video = event.conferenceData?.entryPoints?.find((entry) => entry.entryPointType === 'video');
  return nonEmpty(video?.uri);
}

/** Google's event resource as the mirror keeps it; undefined when it has no usable start. */
export function fromGoogleEvent(calendarId: string, event: calendar_v3.Schema$Event): EventRecord | undefined {
  if (!event.id) return undefined;
  const allDay = Boolean(event.start?.date && !event.start.dateTime);
  let startAt: Date;
  let endAt: Date;
  if (allDay) {
    startAt = new Date(`${event.start!.date!}T00:00:00Z`);
    endAt = event.end?.date ? new Date(`${event.end.date}T00:00:00Z`) : new Date(startAt.getTime() + DAY_MS);
  } else {
    const start = instant(event.start?.dateTime);
    if (!start || Number.isNaN(start.getTime())) return undefined;
    startAt = start;
    endAt = instant(event.end?.dateTime) ?? start;
  }
  return {
    id: event.id,
    calendarId,
    summary: nonEmpty(event.summary),
    description: nonEmpty(event.description),
    location: nonEmpty(event.location),
    allDay,
    startAt,
    endAt,
    startDate: allDay ? event.start!.date! : null,
    endDate: allDay ? (event.end?.date ?? null) : null,
    attendees: (event.attendees ?? []).map((a) => a.email).filter((email): email is string => Boolean(email)),
    status: event.status ?? 'confirmed',
    transparency: nonEmpty(event.transparency),
    recurrence: event.recurrence && event.recurrence.length > 0 ? event.recurrence : null,
    recurringEventId: nonEmpty(event.recurringEventId),
    hangoutLink: meetUrl(event),
    htmlLink: nonEmpty(event.htmlLink),
    createdAt: instant(event.created),
    updatedAt: instant(event.updated),
  };
}

export function fromGoogleCalendar(entry: calendar_v3.Schema$CalendarListEntry): CalendarRecord | undefined {
  if (!entry.id) return undefined;
  return {
    id: entry.id,
    summary: entry.summaryOverride || entry.summary || entry.id,
    backgroundColor: nonEmpty(entry.backgroundColor),
    primary: entry.primary === true,
    accessRole: nonEmpty(entry.accessRole),
  };
}

/** The request body of an insert (everything) or a patch (only what `input` carries). */
export function toGoogleResource(input: Partial<EventInput>, conference: boolean): calendar_v3.Schema$Event {
  const body: calendar_v3.Schema$Event = {};
  if (input.title !== undefined) body.summary = input.title;
  if (input.description !== undefined) body.description = input.description;
  if (input.location !== undefined) body.location = input.location;
  if (input.allDay) {
    // Google's all-day form; the null clears the other one when a timed event becomes all-day.
    if (input.startTime) body.start = { date: input.startTime.toISOString().slice(0, 10), dateTime: null };
    if (input.endTime) body.end = { date: input.endTime.toISOString().slice(0, 10), dateTime: null };
  } else {
    // An explicit timed form (allDay false) clears the date an all-day event had.
    const clear = input.allDay === false ? { date: null } : {};
    if (input.startTime) body.start = { dateTime: input.startTime.toISOString(), ...clear };
    if (input.endTime) body.end = { dateTime: input.endTime.toISOString(), ...clear };
  }
  if (input.attendees !== undefined) body.attendees = input.attendees.map((email) => ({ email }));
  if (conference) {
    body.conferenceData = { createRequest: { requestId: randomUUID(), conferenceSolutionKey: { type: 'hangoutsMeet' } } };
  }
  return body;
}
