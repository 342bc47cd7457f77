import type { EventBody } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import type { CalendarEventWrite } from './microsoft-graph.js';

const DAY_MS = 86_400_000;
/** Longest event the form accepts (as the calendar service's): a typo in the year should not block a month. */
const MAX_EVENT_MS = 31 * DAY_MS;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

// Read as the calendar service reads its form (it sends the same body on), with the same Spanish answers.

/** A date-time (without an offset, UTC) or a date alone (its midnight UTC). */
function instant(text: string, what: string): Date {
  const value = text.trim();
  let ms = Number.NaN;
  if (DATE_ONLY.test(value)) ms = Date.parse(`${value}T00:00:00Z`);
  else if (DATE_TIME.test(value)) ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
  if (Number.isNaN(ms)) throw badRequest(`${what} no es una fecha válida`, 'INVALID_DATE');
  return new Date(ms);
}

/** A calendar date (YYYY-MM-DD) as its midnight UTC. */
function day(text: string, what: string): Date {
  const value = text.trim();
  const ms = DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw badRequest(`${what} debe ser una fecha (AAAA-MM-DD) en un evento de todo el día`, 'INVALID_DATE');
  }
  return new Date(ms);
}

/**
 * Calendario's event form checked and put the way Graph stores it: a title, real dates, the end after the
 * start; an all-day event's last day becomes Graph's exclusive end (the next midnight).
 */
export function calendarEventWrite(body: EventBody): CalendarEventWrite {
  const title = body.title.trim();
  if (!title) throw badRequest('El título es requerido', 'TITLE_REQUIRED');
  const allDay = body.allDay === true;
  const start = allDay ? day(body.startTime, 'La fecha de inicio') : instant(body.startTime, 'La fecha de inicio');
  const end = allDay ? new Date(day(body.endTime, 'La fecha de fin').getTime() + DAY_MS) : instant(body.endTime, 'La fecha de fin');
  if (end.getTime() <= start.getTime()) {
    throw allDay
      ? badRequest('La fecha de fin no puede ser anterior a la de inicio', 'END_BEFORE_START')
      : badRequest('La fecha de fin debe ser posterior a la de inicio', 'END_BEFORE_START');
  }
  if (end.getTime() - start.getTime() > MAX_EVENT_MS) throw badRequest('Un evento no puede durar más de 31 días', 'EVENT_TOO_LONG');
  const description = body.description?.trim();
  const location = body.location?.trim();
  return {
    title,
    start,
    end,
    allDay,
    ...(description !== undefined ? { description } : {}),
    ...(location !== undefined ? { location } : {}),
  };
}
