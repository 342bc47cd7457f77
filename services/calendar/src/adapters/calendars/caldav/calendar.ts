import { badRequest } from '@asistente/kit';
import { busyOf } from '../../../domain/calendars/busy-times.js';
import type { CalendarPort } from '../../../domain/calendars/calendar-port.js';
import type { CaldavConnectionService } from './connection.service.js';
import type { CaldavEventsService } from './events.service.js';

/** CalDAV (iCloud, Fastmail, Nextcloud…): calendar ids are the collections' URLs stored for the user. */
export function caldavCalendar(connection: CaldavConnectionService, events: CaldavEventsService): CalendarPort {
  return {
    name: 'caldav',
    connected: (userId) => connection.connected(userId),
    calendars: async (userId) => (await events.calendars(userId)).map((c, i) => ({ id: c.id, name: c.name, primary: i === 0 })),
    owns: (userId, calendarId) => events.owns(userId, calendarId),
    events: (userId, range, force, calendarId) => events.events(userId, range, force, calendarId),
    busy: async (userId, range) => busyOf(await events.records(userId, range, false)),
    // Without a calendar named, the account's first one (as its server lists them).
    create: async (userId, calendarId, body) => {
      const target = calendarId ?? (await events.calendars(userId))[0]?.id;
      if (target === undefined) throw badRequest('Tu cuenta CalDAV no tiene ningún calendario donde crear el evento', 'CALDAV_NO_CALENDAR');
      return events.create(userId, target, body);
    },
    update: (userId, calendarId, eventId, body) => events.update(userId, calendarId, eventId, body),
    delete: (userId, calendarId, eventId) => events.delete(userId, calendarId, eventId),
  };
}
