import { withDeadline, type Logger, type ServiceClient } from '@asistente/kit';
import type { CalendarPort, ProviderEvent } from '../../../domain/calendars/calendar-port.js';
import { outlookBusy } from './events.js';
import { teamsOutlook } from './teams.js';

/** Under the 5 s the assistant waits for free slots: a slow Outlook leaves the other calendars' answer in time. */
const OUTLOOK_BUSY_TIMEOUT_MS = 3_000;

/**
 * Microsoft (Outlook calendars, named 'msteams' as the contracts and analytics name them): read and written
 * through the teams service, which keeps the Microsoft connection (Graph with the user's own token, so another
 * user's event is a 404). The merged agenda shows every Outlook calendar of the user; a calendar id picks one.
 */
export function outlookCalendar(services: ServiceClient, log: Logger): CalendarPort & { confirmed(userId: string): Promise<boolean> } {
  const outlook = teamsOutlook(services);
  const byStart = (a: ProviderEvent, b: ProviderEvent) => Date.parse(a.startTime) - Date.parse(b.startTime) || a.id.localeCompare(b.id);
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
  // Outlook's Teams link is the event's own joinUrl: nothing attached beside it, and no web link teams gives.
  const written = (event: ProviderEvent) => ({ event, conferenceLink: null, webLink: null });
  return {
    name: 'msteams',
    connected: (userId) => outlook.connected(userId),
    confirmed: (userId) => outlook.confirmed(userId),
    calendars: async (userId) => (await outlook.calendars(userId)).map((c, i) => ({ id: c.id, name: c.name, primary: i === 0 })),
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
      if (calendarId) return outlook.events(userId, range, calendarId);
      return (await everyCalendar(userId, (id) => outlook.events(userId, range, id))).sort(byStart);
    },
    // Every calendar's busy time (meetings land in the default one, the user's own appointments in any), given
    // up after a deadline so a slow Outlook leaves free slots to the other providers (bestEffort).
    busy: async (userId, range) => outlookBusy(await withDeadline(everyCalendar(userId, (id) => outlook.events(userId, range, id)), OUTLOOK_BUSY_TIMEOUT_MS)),
    absentCodes: new Set(['MICROSOFT_NOT_CONNECTED', 'MICROSOFT_NOT_CONFIGURED', 'MICROSOFT_RECONNECT', 'OUTLOOK_ABSENT']),
    bestEffort: (error) => log.warn({ err: error instanceof Error ? error.message : error }, 'outlook events left out of the agenda'),
    create: async (userId, calendarId, body) => written(await outlook.create(userId, calendarId, body)),
    update: async (userId, calendarId, eventId, body) => written(await outlook.update(userId, calendarId, eventId, body)),
    delete: (userId, calendarId, eventId) => outlook.remove(userId, calendarId, eventId),
  };
}
