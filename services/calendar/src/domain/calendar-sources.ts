import type { CalendarEvent } from '@asistente/contracts';
import { badRequest, withDeadline, type Logger } from '@asistente/kit';
import type { CaldavConnectionService } from './caldav-connection.service.js';
import type { CaldavEventsService } from './caldav-events.service.js';
import type { CalendarSource } from './calendar-registry.js';
import type { EventRecord } from './event-record.js';
import type { EventsService } from './events.service.js';
import type { GoogleConnectionService } from './google-connection.service.js';
import { fromOutlook, outlookBusy, outlookScreenEvent } from './outlook-events.js';
import type { OutlookCalendars } from './outlook-port.js';

/**
 * Each provider's registration in the calendar registry (app.ts lists them): how the provider-neutral
 * routes reach its events. A new provider adds its adapter, its port, and one function here.
 */

/** Google Calendar: its mirror's cached views and writes (EventsService), exactly as the routes used them. */
export function googleSource(events: EventsService, connection: GoogleConnectionService): CalendarSource {
  const parse = (body: Buffer) => JSON.parse(body.toString('utf8')) as CalendarEvent[];
  return {
    source: 'google',
    // The fallback: asked whenever nothing else claims a calendar, connected or not (it says "connect Google").
    connected: async (userId) => (await connection.status(userId)).connected,
    owns: async () => true,
    view: (userId, range, force, calendarId) =>
      calendarId ? events.normalized(userId, calendarId, range, force) : events.normalizedAcrossCalendars(userId, range, force),
    events: async (userId, range, force, calendarId) =>
      parse((calendarId ? await events.normalized(userId, calendarId, range, force) : await events.normalizedAcrossCalendars(userId, range, force)).body),
    // Calendars whose events take the user's time: their own, not the ones they only subscribe to.
    busy: async (userId, range) => busyOf(await events.acrossCalendars(userId, range, false, (c) => c.primary || c.accessRole === 'owner')),
    create: (userId, calendarId, body) => events.create(userId, calendarId ?? 'primary', body),
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

/** Under the 5 s the assistant waits for free slots: a slow Outlook leaves the other calendars' answer in time. */
const OUTLOOK_BUSY_TIMEOUT_MS = 3_000;

/**
 * Microsoft (Outlook calendars, source 'msteams' as the contracts and analytics name them): read and written
 * through the teams service, which keeps the Microsoft connection (Graph with the user's own token, so another
 * user's event is a 404). The merged agenda shows every Outlook calendar of the user; a calendar id picks one.
 */
export function microsoftSource(outlook: OutlookCalendars, log: Logger): CalendarSource {
  const byStart = (a: CalendarEvent, b: CalendarEvent) => Date.parse(a.startTime) - Date.parse(b.startTime) || a.id.localeCompare(b.id);
  /**
   * `read` of each Outlook calendar, asked by its id (so its events name it), in parallel. One calendar Graph
   * refuses (a shared one withdrawn: 403) leaves only its own events out; when every calendar fails, the
   * first failure is the answer (the registry then leaves Outlook out of a merged answer, bestEffort).
   */
  const everyCalendar = async <T>(userId: string, read: (calendarId: string) => Promise<T[]>): Promise<T[]> => {
    const calendars = await outlook.calendars(userId);
    const results = await Promise.allSettled(calendars.map((c) => read(c.id)));
    const failures = results.flatMap((r, i) => (r.status === 'rejected' ? [{ calendarId: calendars[i]!.id, error: r.reason as unknown }] : []));
    if (failures.length > 0 && failures.length === results.length) throw failures[0]!.error;
    for (const f of failures) log.warn({ calendarId: f.calendarId, err: f.error instanceof Error ? f.error.message : f.error }, 'outlook calendar left out');
    return results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  };
  return {
    source: 'msteams',
    connected: (userId) => outlook.connected(userId),
    confirmed: (userId) => outlook.confirmed(userId),
    // Only a connected user's own Outlook calendars; an unreachable teams claims nothing (Google's ids stay Google's).
    owns: async (userId, calendarId) => {
      try {
        return (await outlook.connected(userId)) && (await outlook.calendars(userId)).some((c) => c.id === calendarId);
      } catch (error) {
        log.warn({ err: error instanceof Error ? error.message : error }, 'outlook calendars unavailable');
        return false;
      }
    },
    events: async (userId, range, _force, calendarId) => {
      if (calendarId) return (await outlook.events(userId, range, calendarId)).map(fromOutlook);
      return (await everyCalendar(userId, (id) => outlook.events(userId, range, id))).map(fromOutlook).sort(byStart);
    },
    // Every calendar's busy time (meetings land in the default one, the user's own appointments in any), given
    // up after a deadline so a slow Outlook leaves free slots to the other providers (bestEffort), as before.
    busy: async (userId, range) => outlookBusy(await withDeadline(everyCalendar(userId, (id) => outlook.events(userId, range, id)), OUTLOOK_BUSY_TIMEOUT_MS)),
    absentCodes: new Set(['MICROSOFT_NOT_CONNECTED', 'MICROSOFT_NOT_CONFIGURED', 'MICROSOFT_RECONNECT', 'OUTLOOK_ABSENT']),
    bestEffort: (error) => log.warn({ err: error instanceof Error ? error.message : error }, 'outlook events left out of the agenda'),
    create: async (userId, calendarId, body) => outlookScreenEvent(await outlook.create(userId, calendarId, body)),
    update: async (userId, calendarId, eventId, body) => outlookScreenEvent(await outlook.update(userId, calendarId, eventId, body)),
    delete: (userId, calendarId, eventId) => outlook.remove(userId, calendarId, eventId),
  };
}

/** Opaque, not cancelled events as the time they take. */
function busyOf(records: EventRecord[]) {
  return records.filter((e) => e.transparency !== 'transparent' && e.status !== 'cancelled').map((e) => ({ start: e.startAt.getTime(), end: e.endAt.getTime() }));
}
