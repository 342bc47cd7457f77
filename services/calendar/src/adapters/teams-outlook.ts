import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { MicrosoftCalendar, MicrosoftCalendarEvent } from '@asistente/contracts';
import { AppError, ServiceCallError, type ServiceClient } from '@asistente/kit';
import type { Range } from '../domain/dates.js';
import type { OutlookCalendars } from '../domain/outlook-port.js';

const Calendars = Type.Array(MicrosoftCalendar);
const Events = Type.Array(MicrosoftCalendarEvent);
const Status = Type.Object({ connected: Type.Boolean() });

/** Statuses that only say "no Microsoft here": teams not mounted (404) or not reachable (503). */
const ABSENT = new Set([404, 503]);

const unavailable = () => new AppError(502, 'OUTLOOK_UNAVAILABLE', 'No se pudo leer el calendario de Outlook. Inténtalo de nuevo en unos minutos.');

/**
 * Outlook calendars through the teams service's own routes (spec: /microsoft/calendars, /microsoft/events),
 * over the service client with a short-lived token scoped to the user: the same answers the browser gets,
 * no Microsoft token and no teams schema on this side.
 */
export function teamsOutlook(services: ServiceClient): OutlookCalendars {
  const ask = async (userId: string, path: string, query?: Record<string, string>, timeoutMs?: number): Promise<unknown> => {
    try {
      return await services.request('teams', userId, path, { ...(query ? { query } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
    } catch (error) {
      // teams' own answer (not connected, calendar gone, Graph refused) travels on as it is.
      if (error instanceof ServiceCallError && error.statusCode < 500 && isError(error.body)) throw new AppError(error.statusCode, error.body.code, error.body.message);
      throw unavailable();
    }
  };
  return {
    async connected(userId) {
      if (!services.available('teams')) return false;
      try {
        const status = await services.request('teams', userId, '/teams/status');
        return Value.Check(Status, status) && status.connected;
      } catch (error) {
        if (error instanceof ServiceCallError && ABSENT.has(error.statusCode)) return false;
        throw error;
      }
    },
    async calendars(userId) {
      const answer = await ask(userId, '/microsoft/calendars');
      if (!Value.Check(Calendars, answer)) throw unavailable();
      return answer;
    },
    async events(userId: string, range: Range, calendarId?: string, timeoutMs?: number) {
      const query = { dateFrom: range.from.toISOString(), dateTo: range.to.toISOString(), ...(calendarId ? { calendarId } : {}) };
      const answer = await ask(userId, '/microsoft/events', query, timeoutMs);
      if (!Value.Check(Events, answer)) throw unavailable();
      return answer;
    },
  };
}

function isError(body: unknown): body is { code: string; message: string } {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' && typeof (body as { message?: unknown }).message === 'string';
}
