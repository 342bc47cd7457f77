import { MicrosoftCalendarEventList } from '@asistente/contracts';
import { ServiceCallError, type Logger, type ServiceClient } from '@asistente/kit';
import type { Range } from './dates.js';

/** Under the 5 s the assistant waits for free slots: a slow Outlook leaves Google's answer in time. */
const OUTLOOK_TIMEOUT_MS = 3_000;

/** Statuses that mean the user simply has no usable Microsoft calendar (not connected, not configured, down). */
const ABSENT = new Set([401, 403, 404, 409, 503]);

/**
 * Busy time in the user's Outlook calendar (Teams connection), asked of the teams service through the
 * service-to-service client, never its schema. Timed events that are not cancelled block; all-day ones do
 * not, as with Google's default. No Microsoft connection, or a failing one, means no Outlook busy time:
 * the Google calendars still answer.
 */
export async function microsoftBusy(services: ServiceClient, log: Logger, userId: string, range: Range): Promise<{ start: number; end: number }[]> {
  if (!services.available('teams')) return [];
  let answer: MicrosoftCalendarEventList;
  try {
    answer = await services.call('teams', userId, '/microsoft/events', MicrosoftCalendarEventList, {
      query: { dateFrom: range.from.toISOString(), dateTo: range.to.toISOString() },
      timeoutMs: OUTLOOK_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof ServiceCallError && ABSENT.has(error.statusCode))) log.warn({ err: error instanceof Error ? error.message : error }, 'outlook busy time unavailable');
    return [];
  }
  return answer
    .filter((e) => !e.allDay && e.status !== 'cancelled')
    .map((e) => ({ start: Date.parse(e.startTime), end: Date.parse(e.endTime) }))
    .filter((b) => Number.isFinite(b.start) && Number.isFinite(b.end) && b.end > b.start);
}
