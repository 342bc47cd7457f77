import type { MicrosoftCalendarEvent, TeamsMeeting, TeamsMeetingStatus } from '@asistente/contracts';
import type { DateTimeZone, GraphEvent } from './microsoft-graph.js';

/** Graph's dateTime in UTC (we ask for UTC with the Prefer header) as an ISO instant. */
export function graphInstant(value: DateTimeZone | null | undefined): string {
  const raw = value?.dateTime;
  if (!raw) return '';
  const zone = value?.timeZone ?? 'UTC';
  const stamped = /[zZ]|[+-]\d\d:\d\d$/.test(raw) || zone !== 'UTC' ? raw : `${raw}Z`;
  const date = new Date(stamped);
  return Number.isNaN(date.getTime()) ? raw : date.toISOString();
}

function attendeeAddresses(event: GraphEvent): string[] {
  return (event.attendees ?? [])
    .map((a) => a.emailAddress?.address ?? a.emailAddress?.name ?? '')
    .filter((address) => address !== '');
}

/** scheduled before its start, in-progress until its end, ended after. */
export function meetingStatus(start: string, end: string, now = Date.now()): TeamsMeetingStatus {
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  if (Number.isFinite(startMs) && now < startMs) return 'scheduled';
  if (Number.isFinite(endMs) && now < endMs) return 'in-progress';
  return 'ended';
}

export function toMeeting(event: GraphEvent, now = Date.now()): TeamsMeeting {
  const startTime = graphInstant(event.start);
  const endTime = graphInstant(event.end);
  return {
    id: event.id ?? '',
    title: event.subject?.trim() || '(sin título)',
    startTime,
    endTime,
    status: meetingStatus(startTime, endTime, now),
    attendees: attendeeAddresses(event),
    joinUrl: event.onlineMeeting?.joinUrl ?? event.onlineMeetingUrl ?? null,
  };
}

/** The spec's normalised calendar event (section 3) from a Graph event, source msteams. */
export function toCalendarEvent(event: GraphEvent, calendarId: string): MicrosoftCalendarEvent {
  const allDay = event.isAllDay === true;
  const start = graphInstant(event.start);
  const end = graphInstant(event.end);
  // All-day: Graph's dates as stored, the end exclusive (the next midnight); Calendario shows the day before.
  const startDay = start.slice(0, 10);
  const endDay = end ? end.slice(0, 10) : startDay;
  const recurring = event.type === 'occurrence' || event.type === 'seriesMaster' || event.type === 'exception' || Boolean(event.recurrence);
  return {
    id: event.id ?? '',
    title: event.subject?.trim() || '(sin título)',
    description: event.bodyPreview ?? '',
    startDate: allDay ? startDay : start,
    endDate: allDay ? endDay : end,
    startTime: allDay ? startDay : start,
    endTime: allDay ? endDay : end,
    allDay,
    location: event.location?.displayName ?? '',
    attendees: attendeeAddresses(event),
    type: allDay ? 'reminder' : 'meeting',
    status: event.isCancelled ? 'cancelled' : 'confirmed',
    createdAt: event.createdDateTime ?? null,
    updatedAt: event.lastModifiedDateTime ?? null,
    source: 'msteams',
    isRecurring: recurring,
    recurrencePattern: event.recurrence?.pattern?.type ?? null,
    joinUrl: event.onlineMeeting?.joinUrl ?? event.onlineMeetingUrl ?? null,
    calendarId,
  };
}
