import ical, { ICalEventStatus, ICalEventTransparency, type ICalCalendar } from 'ical-generator';
import { keysetPart, type AccountExportPart } from '@asistente/kit';
import type { AccountExportRepository, ExportedEvent } from './account-export.repository.js';

const PAGE_EVENTS = 1000;
const END = 'END:VCALENDAR';

function calendar(): ICalCalendar {
  return ical({ prodId: { company: 'Mi Asistente.IA', product: 'Descargar mis datos', language: 'ES' }, name: 'Mi Asistente.IA' });
}

const STATUS: Record<string, ICalEventStatus> = {
  confirmed: ICalEventStatus.CONFIRMED,
  tentative: ICalEventStatus.TENTATIVE,
  cancelled: ICalEventStatus.CANCELLED,
};

/**
 * The events of one page as VEVENT blocks, written by ical-generator (escaping, line folding, all-day dates)
 * in a calendar of their own whose frame is cut off: the file's frame is written once around all pages.
 */
function vevents(events: ExportedEvent[]): string {
  const page = calendar();
  for (const e of events) {
    const rrule = e.recurrence?.find((line) => line.startsWith('RRULE:'));
    page.createEvent({
      id: `${e.id}@${e.calendarId}`,
      start: e.allDay && e.startDate ? e.startDate : e.startAt,
      end: e.allDay && e.endDate ? e.endDate : e.endAt,
      allDay: e.allDay,
      summary: e.summary ?? '',
      description: e.description,
      location: e.location,
      attendees: e.attendees.map((email) => ({ email })),
      status: STATUS[e.status] ?? null,
      transparency: e.transparency === 'transparent' ? ICalEventTransparency.TRANSPARENT : e.transparency === 'opaque' ? ICalEventTransparency.OPAQUE : null,
      repeating: rrule ?? null,
      url: e.htmlLink,
      created: e.createdAt,
      lastModified: e.updatedAt,
      x: e.calendarName ? [{ key: 'X-ASISTENTE-CALENDAR', value: e.calendarName }] : [],
    });
  }
  const text = page.toString();
  const start = text.indexOf('BEGIN:VEVENT');
  return start < 0 ? '' : text.slice(start, text.lastIndexOf(END));
}

/** A file name nothing can escape from: safe characters only. */
const safe = (name: string) => name.replace(/[^A-Za-z0-9@._+-]/g, '_').replace(/^\.+/, '_').slice(0, 150);

/** CalDAV events as their server keeps them: one `.ics` per object, `caldav/<calendar>/<object>.ics`. */
function caldavPart(repository: AccountExportRepository): AccountExportPart {
  return {
    async page(userId, cursor) {
      const objects = await repository.caldavObjects(userId, cursor ? (JSON.parse(cursor) as [string, string]) : undefined, PAGE_EVENTS);
      const last = objects[objects.length - 1];
      return {
        pieces: objects.map((o) => ({ path: `caldav/${safe(o.calendarId)}/${safe(o.href.split('/').filter(Boolean).pop() ?? o.href).replace(/(\.ics)?$/, '.ics')}`, text: o.ics })),
        next: objects.length < PAGE_EVENTS || !last ? null : JSON.stringify([last.calendarId, last.href]),
      };
    },
  };
}

/**
 * The calendar's share of "Descargar mis datos": every Google event mirrored here in one `eventos.ics`, and the
 * CalDAV events as their server sent them.
 */
export function calendarExportParts(repository: AccountExportRepository): AccountExportPart[] {
  const empty = calendar().toString();
  return [
    keysetPart(
      'eventos.ics',
      {
        rows: (userId, after, limit) => repository.events(userId, after ? (JSON.parse(after) as [string, string]) : undefined, limit),
        key: (e) => JSON.stringify([e.calendarId, e.id]),
      },
      { head: empty.slice(0, empty.lastIndexOf(END)), body: vevents, tail: `${END}\r\n` },
      PAGE_EVENTS,
    ),
    caldavPart(repository),
  ];
}
