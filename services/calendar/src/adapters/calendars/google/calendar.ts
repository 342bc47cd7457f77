import type { CalendarEvent } from '@asistente/contracts';
import { AppError } from '@asistente/kit';
import type { CalendarSyncService } from '../../../domain/calendar-sync.service.js';
import { busyOf } from '../../../domain/calendars/busy-times.js';
import type { CalendarPort, WrittenEvent } from '../../../domain/calendars/calendar-port.js';
import type { EventRecord } from '../../../domain/event-record.js';
import type { EventsService } from '../../../domain/events.service.js';
import type { GoogleConnectionService } from '../../../domain/google-connection.service.js';
import { toCalendarEvent } from '../../../domain/normalize.js';
import type { GoogleWrites } from './writes.js';

/** Errors that only say the user has no usable Google calendar (the merged agenda leaves Google out). */
const ABSENT = new Set(['GOOGLE_NOT_CONFIGURED', 'GOOGLE_NOT_CONNECTED', 'GOOGLE_RECONNECT']);

/** What a calendar id Google cannot be asked about, or does not list, means: not Google's. */
const NOT_GOOGLES = new Set(['CALENDAR_NOT_FOUND', 'GOOGLE_NOT_CONFIGURED', 'GOOGLE_NOT_CONNECTED']);

/** Google's write answer in the port's words: the mirrored record's normalised event and its links. */
function writtenOf(record: EventRecord): WrittenEvent {
  const { source: _source, ...event } = toCalendarEvent(record);
  return { event, conferenceLink: record.hangoutLink, webLink: record.htmlLink };
}

/** What Google's calendar is made of: the domain's mirror (reads, sync, connection) and Google's own writes. */
export interface GoogleParts {
  events: EventsService;
  sync: CalendarSyncService;
  connection: GoogleConnectionService;
  writes: GoogleWrites;
}

/** Google Calendar: reads from the domain's mirror (cached views), writes to Google first (GoogleWrites). */
export function googleCalendar({ events, sync, connection, writes }: GoogleParts): CalendarPort {
  const parse = (body: Buffer) => JSON.parse(body.toString('utf8')) as CalendarEvent[];
  return {
    name: 'google',
    // The first provider: asked for the agenda whether connected or not (it says "connect Google").
    connected: async (userId) => (await connection.status(userId)).connected,
    calendars: async (userId) => (await sync.calendars(userId)).map((c) => ({ id: c.id, name: c.summary, primary: c.primary })),
    // 'primary' is Google's own name for the default calendar: Google's whether connected or not (its answer then
    // says what to connect). Another id is Google's when its calendar list (looked at again once) has it.
    owns: async (userId, calendarId) => {
      if (calendarId === 'primary') return true;
      try {
        await sync.calendar(userId, calendarId);
        return true;
      } catch (error) {
        // Not connected here: not Google's. A grant to renew or an unreachable Google cannot tell: its error.
        if (error instanceof AppError && NOT_GOOGLES.has(error.code)) return false;
        throw error;
      }
    },
    view: (userId, range, force, calendarId) =>
      calendarId ? events.normalized(userId, calendarId, range, force) : events.normalizedAcrossCalendars(userId, range, force),
    events: async (userId, range, force, calendarId) =>
      parse((calendarId ? await events.normalized(userId, calendarId, range, force) : await events.normalizedAcrossCalendars(userId, range, force)).body),
    // Calendars whose events take the user's time: their own, not the ones they only subscribe to.
    busy: async (userId, range) => busyOf(await events.acrossCalendars(userId, range, false, (c) => c.primary || c.accessRole === 'owner')),
    create: async (userId, calendarId, body) => writtenOf(await writes.create(userId, calendarId ?? 'primary', body)),
    update: async (userId, calendarId, eventId, body) => writtenOf(await writes.update(userId, calendarId, eventId, body)),
    delete: (userId, calendarId, eventId) => writes.delete(userId, calendarId, eventId),
    absentCodes: ABSENT,
  };
}
