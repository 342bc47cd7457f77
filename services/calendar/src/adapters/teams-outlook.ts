import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { MicrosoftCalendar, MicrosoftCalendarEventList, TeamsStatus } from '@asistente/contracts';
import { AppError, ServiceCallError, type ServiceClient } from '@asistente/kit';
import type { Range } from '../domain/dates.js';
import type { OutlookCalendars } from '../domain/outlook-port.js';

const Calendars = Type.Array(MicrosoftCalendar);
/** The fields of teams' normalised Outlook event that busy time needs (the rest is not checked). */
const Times = Type.Array(Type.Object({ startTime: Type.String(), endTime: Type.String(), allDay: Type.Boolean(), status: Type.String() }));

/** Answers without teams' own error that only say "no Microsoft here": teams not mounted (404) or not reachable (503). */
const ABSENT = new Set([404, 503]);

/** Code of an Outlook that cannot be asked at all (teams not there): the merged agenda goes on without it. */
const OUTLOOK_ABSENT = 'OUTLOOK_ABSENT';

const unavailable = () => new AppError(502, 'OUTLOOK_UNAVAILABLE', 'No se pudo leer el calendario de Outlook. Inténtalo de nuevo en unos minutos.');

/**
 * Outlook calendars through the teams service's own routes (spec: /microsoft/calendars, /microsoft/events),
 * over the service client with a short-lived token scoped to the user: the same answers the browser gets,
 * no Microsoft token and no teams schema on this side.
 */
export function teamsOutlook(services: ServiceClient): OutlookCalendars {
  // Answers are checked against the contract of teams' route (a wrong shape is a ServiceAnswerError, a 502).
  const ask = async <S extends TSchema>(userId: string, path: string, answer: S, query?: Record<string, string>, timeoutMs?: number): Promise<Static<S>> => {
    try {
      return await services.call('teams', userId, path, answer, { ...(query ? { query } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
    } catch (error) {
      if (!(error instanceof ServiceCallError)) throw error;
      // teams' own answer (not connected, not configured, calendar gone, Graph refused) travels on as it is.
      if (isError(error.body)) throw new AppError(error.statusCode, error.body.code, error.body.message);
      if (ABSENT.has(error.statusCode)) throw new AppError(503, OUTLOOK_ABSENT, 'El calendario de Outlook no está disponible ahora.');
      throw unavailable();
    }
  };
  return {
    // Connected unless teams says otherwise: a teams that cannot tell (no status route here) is asked for the
    // events themselves, and an absent answer counts as no Outlook.
    async connected(userId) {
      if (!services.available('teams')) return false;
      const status = await services.call('teams', userId, '/teams/status', TeamsStatus).catch(() => undefined);
      return status === undefined || status.connected;
    },
    calendars: (userId) => ask(userId, '/microsoft/calendars', Calendars),
    events: (userId: string, range: Range, calendarId?: string) => ask(userId, '/microsoft/events', MicrosoftCalendarEventList, rangeQuery(range, calendarId)),
    busyEvents: (userId: string, range: Range, timeoutMs: number) => ask(userId, '/microsoft/events', Times, rangeQuery(range), timeoutMs),
  };
}

const rangeQuery = (range: Range, calendarId?: string) => ({ dateFrom: range.from.toISOString(), dateTo: range.to.toISOString(), ...(calendarId ? { calendarId } : {}) });

function isError(body: unknown): body is { code: string; message: string } {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' && typeof (body as { message?: unknown }).message === 'string';
}
