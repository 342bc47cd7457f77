import type { CalendarEvent } from '@asistente/contracts';
import { badRequest, type Logger } from '@asistente/kit';
import type { CaldavConnectionService } from './caldav-connection.service.js';
import type { CaldavEventsService } from './caldav-events.service.js';
import type { CalendarSource } from './calendar-registry.js';
import type { EventRecord } from './event-record.js';
import type { EventsService } from './events.service.js';
import { fromOutlook, outlookBusy } from './outlook-events.js';
import type { OutlookCalendars } from './outlook-port.js';

/**
 * Each provider's registration in the calendar registry (app.ts lists them): how the provider-neutral
 * routes reach its events. A new provider adds its adapter, its port, and one function here.
 */

/** Google Calendar: its mirror's cached views and writes (EventsService), exactly as the routes used them. */
export function googleSource(events: EventsService): CalendarSource {
  const parse = (body: Buffer) => JSON.parse(body.toString('utf8')) as CalendarEvent[];
  return {
    source: 'google',
    // The fallback: asked whenever nothing else claims a calendar, connected or not (it says "connect Google").
    connected: async () => true,
    owns: async () => true,
    view: (userId, range, force, calendarId) =>
      calendarId ? events.normalized(userId, calendarId, range, force) : events.normalizedAcrossCalendars(userId, range, force),
    events: async (userId, range, force, calendarId) =>
      parse((calendarId ? await events.normalized(userId, calendarId, range, force) : await events.normalizedAcrossCalendars(userId, range, force)).body),
    // Calendars whose events take the user's time: their own, not the ones they only subscribe to.
    busy: async (userId, range) => busyOf(await events.acrossCalendars(userId, range, false, (c) => c.primary || c.accessRole === 'owner')),
    create: (userId, calendarId, body) => events.create(userId, calendarId, body),
    update: (userId, calendarId, eventId, body) => events.update(userId, calendarId, eventId, body),
    delete: (userId, calendarId, eventId) => events.delete(userId, calendarId, eventId),
    absentCodes: new Set(['GOOGLE_NOT_CONFIGURED', 'GOOGLE_NOT_CONNECTED', 'GOOGLE_RECONNECT']),
  };
}

/** CalDAV (iCloud, Fastmail, Nextcloud…): calendar ids are the collections' URLs stored for the user. */
export function caldavSource(connection: CaldavConnectionService, events: CaldavEventsService): CalendarSource {
  return {
    source: 'caldav',
    connected: (userId) => connection.connected(userId),
    owns: (userId, calendarId) => events.owns(userId, calendarId),
    events: (userId, range, force, calendarId) => events.events(userId, range, force, calendarId),
    busy: async (userId, range) => busyOf(await events.records(userId, range, false)),
    create: (userId, calendarId, body) => events.create(userId, calendarId, body),
    update: (userId, calendarId, eventId, body) => events.update(userId, calendarId, eventId, body),
    delete: (userId, calendarId, eventId) => events.delete(userId, calendarId, eventId),
  };
}

/** Under the 5 s the assistant waits for free slots: a slow Outlook leaves the other calendars' answer in time. */
const OUTLOOK_BUSY_TIMEOUT_MS = 3_000;

/**
 * Microsoft (Outlook calendars, source 'msteams' as the contracts and analytics name them): read through the
 * teams service, which keeps the Microsoft connection. The merged agenda shows the default calendar; a
 * calendar id (or `source=msteams`) picks one. Writing is not offered yet: Outlook events are edited in
 * Outlook, as the Calendario screen says.
 */
export function microsoftSource(outlook: OutlookCalendars, log: Logger): CalendarSource {
  const readOnly = async (): Promise<never> => {
    throw badRequest('Los eventos de Outlook se editan en Outlook o en Microsoft Teams.', 'OUTLOOK_READ_ONLY');
  };
  return {
    source: 'msteams',
    connected: (userId) => outlook.connected(userId),
    // Only a connected user's own Outlook calendars; an unreachable teams claims nothing (Google's ids stay Google's).
    owns: async (userId, calendarId) => {
      try {
        return (await outlook.connected(userId)) && (await outlook.calendars(userId)).some((c) => c.id === calendarId);
      } catch (error) {
        log.warn({ err: error instanceof Error ? error.message : error }, 'outlook calendars unavailable');
        return false;
      }
    },
    events: async (userId, range, _force, calendarId) => (await outlook.events(userId, range, calendarId)).map(fromOutlook),
    // Quicker than a view: a slow Outlook leaves free slots to the other calendars (bestEffort), as before the move.
    busy: async (userId, range) => outlookBusy(await outlook.busyEvents(userId, range, OUTLOOK_BUSY_TIMEOUT_MS)),
    absentCodes: new Set(['MICROSOFT_NOT_CONNECTED', 'MICROSOFT_NOT_CONFIGURED', 'MICROSOFT_RECONNECT', 'OUTLOOK_ABSENT']),
    bestEffort: (error) => log.warn({ err: error instanceof Error ? error.message : error }, 'outlook events left out of the agenda'),
    create: readOnly,
    update: readOnly,
    delete: readOnly,
  };
}

/** Opaque, not cancelled events as the time they take. */
function busyOf(records: EventRecord[]) {
  return records.filter((e) => e.transparency !== 'transparent' && e.status !== 'cancelled').map((e) => ({ start: e.startAt.getTime(), end: e.endAt.getTime() }));
}
