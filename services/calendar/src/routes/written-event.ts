import type { WrittenAgendaEvent } from '../domain/calendars/calendar-registry.js';

const DAY_MS = 86_400_000;
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * The answer of POST and PUT /events, whatever provider wrote the event: the normalised event plus the
 * start/end pair and links the Calendario screen has always read (the contracts' `GoogleEvent` shape, from
 * when Google was the only provider). An all-day end there is exclusive (the day after the last), as
 * providers store it.
 */
export function writtenAnswer({ event, conferenceLink, webLink }: WrittenAgendaEvent) {
  return {
    ...event,
    summary: event.title,
    start: event.allDay ? { date: event.startDate } : { dateTime: event.startTime },
    end: event.allDay ? { date: dayAfter(event.endDate) } : { dateTime: event.endTime },
    hangoutLink: conferenceLink,
    htmlLink: webLink,
  };
}
