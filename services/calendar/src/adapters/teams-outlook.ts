import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { MicrosoftCalendar, MicrosoftCalendarEvent, MicrosoftCalendarEventList, TeamsStatus } from '@asistente/contracts';
import { AppError, ServiceCallError, type ServiceClient, type ServiceRequest } from '@asistente/kit';
import type { Range } from '../domain/dates.js';
import type { OutlookCalendars } from '../domain/outlook-port.js';

const Calendars = Type.Array(MicrosoftCalendar);
/** The fields of teams' normalised Outlook event that busy time needs (the rest is not checked). */

/** Answers without teams' own error that only say "no Microsoft here": teams not mounted (404) or not reachable (503). */
const ABSENT = new Set([404, 503]);

/** Code of an Outlook that cannot be asked at all (teams not there): the merged agenda goes on without it. */
const OUTLOOK_ABSENT = 'OUTLOOK_ABSENT';

/** A write waits longer than a read: Graph stores the event and teams answers it (a timeout leaves it unknown). */
const WRITE_TIMEOUT_MS = 15_000;

const unavailable = () => new AppError(502, 'OUTLOOK_UNAVAILABLE', 'No se pudo leer el calendario de Outlook. Inténtalo de nuevo en unos minutos.');
/** A write whose answer never came (or came malformed): it may or may not have happened at Graph. */
const notSaved = () =>
  new AppError(502, 'OUTLOOK_UNAVAILABLE', 'No se pudo confirmar el cambio en el calendario de Outlook. Revisa tu calendario antes de intentarlo de nuevo.');

/**
 * Outlook calendars through the teams service's own routes (spec: /microsoft/calendars, /microsoft/events),
 * over the service client with a short-lived token scoped to the user: the same answers the browser gets,
 * no Microsoft token and no teams schema on this side.
 */
export function teamsOutlook(services: ServiceClient): OutlookCalendars {
  // teams' own answer (not connected, not configured, calendar or event gone, Graph refused) travels on as it is.
  const failure = (error: unknown, otherwise = unavailable): unknown => {
    if (!(error instanceof ServiceCallError)) return error;
    if (isError(error.body)) return new AppError(error.statusCode, error.body.code, error.body.message);
    if (ABSENT.has(error.statusCode)) return new AppError(503, OUTLOOK_ABSENT, 'El calendario de Outlook no está disponible ahora.');
    return otherwise();
  };
  // Answers are checked against the contract of teams' route (a wrong shape is a ServiceAnswerError, a 502).
  const ask = async <S extends TSchema>(userId: string, path: string, answer: S, options: ServiceRequest = {}): Promise<Static<S>> => {
    try {
      return await services.call('teams', userId, path, answer, options);
    } catch (error) {
      throw failure(error, options.method && options.method !== 'GET' ? notSaved : unavailable);
    }
  };
  const eventPath = (eventId: string) => `/microsoft/events/${encodeURIComponent(eventId)}`;
  return {
    // Connected unless teams says otherwise: a teams that cannot tell (no status route here) is asked for the
    // events themselves, and an absent answer counts as no Outlook.
    async connected(userId) {
      if (!services.available('teams')) return false;
      const status = await services.call('teams', userId, '/teams/status', TeamsStatus).catch(() => undefined);
      return status === undefined || status.connected;
    },
    async confirmed(userId) {
      if (!services.available('teams')) return false;
      const status = await services.call('teams', userId, '/teams/status', TeamsStatus).catch(() => undefined);
      return status?.connected === true;
    },
    calendars: (userId) => ask(userId, '/microsoft/calendars', Calendars),
    events: (userId: string, range: Range, calendarId?: string) => ask(userId, '/microsoft/events', MicrosoftCalendarEventList, { query: rangeQuery(range, calendarId) }),
    create: (userId, calendarId, body) =>
      ask(userId, '/microsoft/events', MicrosoftCalendarEvent, { method: 'POST', body: { ...body, ...(calendarId ? { calendarId } : {}) }, timeoutMs: WRITE_TIMEOUT_MS }),
    update: (userId, calendarId, eventId, body) =>
      ask(userId, eventPath(eventId), MicrosoftCalendarEvent, { method: 'PUT', body: { ...body, calendarId }, timeoutMs: WRITE_TIMEOUT_MS }),
    // A 204 carries nothing to check: the status is the answer.
    async remove(userId, calendarId, eventId) {
      await services.request('teams', userId, eventPath(eventId), { method: 'DELETE', query: { calendarId }, timeoutMs: WRITE_TIMEOUT_MS }).catch((error: unknown) => {
        throw failure(error, notSaved);
      });
    },
  };
}

const rangeQuery = (range: Range, calendarId?: string) => ({ dateFrom: range.from.toISOString(), dateTo: range.to.toISOString(), ...(calendarId ? { calendarId } : {}) });

function isError(body: unknown): body is { code: string; message: string } {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' && typeof (body as { message?: unknown }).message === 'string';
}
