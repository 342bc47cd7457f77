import { teamsRoutes, type EventBody, type RouteAnswer } from '@asistente/contracts';
import { AppError, ServiceCallError, type CallArguments, type ServiceClient } from '@asistente/kit';
import type { ProviderEvent } from '../../../domain/calendars/calendar-port.js';
import type { Range } from '../../../domain/dates.js';
import { fromOutlook } from './events.js';

type TeamsRoute = (typeof teamsRoutes)[keyof typeof teamsRoutes];

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
 * no Microsoft token and no teams schema on this side. The Microsoft connection (its sealed tokens, Graph
 * itself) stays with teams, which also needs it for teams, channels and online meetings. Events come back as
 * the port's events; calls that fail throw AppError (teams' own, or OUTLOOK_ABSENT / OUTLOOK_UNAVAILABLE).
 */
export function teamsOutlook(services: ServiceClient) {
  // teams' own answer (not connected, not configured, calendar or event gone, Graph refused) travels on as it is.
  const failure = (error: unknown, otherwise = unavailable): unknown => {
    if (!(error instanceof ServiceCallError)) return error;
    if (isError(error.body)) return new AppError(error.statusCode, error.body.code, error.body.message);
    if (ABSENT.has(error.statusCode)) return new AppError(503, OUTLOOK_ABSENT, 'El calendario de Outlook no está disponible ahora.');
    return otherwise();
  };
  // Answers are checked against the contract of teams' route (a wrong shape is a ServiceAnswerError, a 502).
  const ask = async <D extends TeamsRoute>(route: D, userId: string, ...options: CallArguments<D>): Promise<RouteAnswer<D>> => {
    try {
      return await services.call(route, userId, ...options);
    } catch (error) {
      throw failure(error, route.method !== 'GET' ? notSaved : unavailable);
    }
  };
  return {
    // Connected unless teams says otherwise: a teams that cannot tell (no status route here) is asked for the
    // events themselves, and an absent answer counts as no Outlook.
    async connected(userId: string): Promise<boolean> {
      if (!services.available('teams')) return false;
      const status = await services.call(teamsRoutes.status, userId).catch(() => undefined);
      return status === undefined || status.connected;
    },
    /** Whether teams answered that the user has Microsoft connected (false when it cannot tell). */
    async confirmed(userId: string): Promise<boolean> {
      if (!services.available('teams')) return false;
      const status = await services.call(teamsRoutes.status, userId).catch(() => undefined);
      return status?.connected === true;
    },
    calendars: (userId: string) => ask(teamsRoutes.calendars, userId),
    /** The events of one calendar (the default one without `calendarId`) overlapping the range. */
    events: async (userId: string, range: Range, calendarId?: string): Promise<ProviderEvent[]> =>
      (await ask(teamsRoutes.events, userId, { query: rangeQuery(range, calendarId) })).map(fromOutlook),
    // Writes through teams' own routes (Graph with the user's own token: another user's event is a 404); without
    // `calendarId` the default calendar.
    create: async (userId: string, calendarId: string | undefined, body: EventBody): Promise<ProviderEvent> =>
      fromOutlook(await ask(teamsRoutes.createEvent, userId, { body: { ...body, ...(calendarId ? { calendarId } : {}) }, timeoutMs: WRITE_TIMEOUT_MS })),
    update: async (userId: string, calendarId: string, eventId: string, body: EventBody): Promise<ProviderEvent> =>
      fromOutlook(await ask(teamsRoutes.updateEvent, userId, { params: { eventId }, body: { ...body, calendarId }, timeoutMs: WRITE_TIMEOUT_MS })),
    // A 204 answers null (checked against the route's Type.Null()): the status is the answer.
    async remove(userId: string, calendarId: string, eventId: string): Promise<void> {
      await ask(teamsRoutes.deleteEvent, userId, { params: { eventId }, query: { calendarId }, timeoutMs: WRITE_TIMEOUT_MS });
    },
  };
}

const rangeQuery = (range: Range, calendarId?: string) => ({ dateFrom: range.from.toISOString(), dateTo: range.to.toISOString(), ...(calendarId ? { calendarId } : {}) });

function isError(body: unknown): body is { code: string; message: string } {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' && typeof (body as { message?: unknown }).message === 'string';
}
