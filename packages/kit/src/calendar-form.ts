import type { EventBody } from '@asistente/contracts';
import { badRequest } from './http/errors.js';

const DAY_MS = 86_400_000;
/** Longest event the forms accept: a typo in the year should not block a month of someone's calendar. */
const MAX_EVENT_MS = 31 * DAY_MS;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO date or date-time from a request. A date alone is that day's midnight UTC; a date-time without an
 * offset is read as UTC too (the screens send instants with their offset). `what` names it in the 400.
 */
export function parseInstant(text: string, what: string): Date {
  const value = text.trim();
  let ms = Number.NaN;
  if (DATE_ONLY.test(value)) ms = Date.parse(`${value}T00:00:00Z`);
  else if (DATE_TIME.test(value)) ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
  if (Number.isNaN(ms)) throw badRequest(`${what} no es una fecha válida`, 'INVALID_DATE');
  return new Date(ms);
}

/** A calendar date (YYYY-MM-DD) as its midnight UTC; `what` names it in the 400. */
export function parseDay(text: string, what: string): Date {
  const value = text.trim();
  const ms = DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw badRequest(`${what} debe ser una fecha (AAAA-MM-DD) en un evento de todo el día`, 'INVALID_DATE');
  }
  return new Date(ms);
}

export interface CheckedEventForm {
  title: string;
  start: Date;
  /** Exclusive: an all-day event's last day becomes the next midnight, as Google, Graph and CalDAV store it. */
  end: Date;
  allDay: boolean;
  description?: string;
  location?: string;
}

/**
 * Calendario's event form checked, the same for every provider and every service that takes it (calendar,
 * and teams for Outlook): a title, real dates, the end after the start, at most 31 days.
 */
export function checkEventForm(body: EventBody): CheckedEventForm {
  const title = body.title.trim();
  if (!title) throw badRequest('El título es requerido', 'TITLE_REQUIRED');
  const allDay = body.allDay === true;
  const start = allDay ? parseDay(body.startTime, 'La fecha de inicio') : parseInstant(body.startTime, 'La fecha de inicio');
  const end = allDay ? new Date(parseDay(body.endTime, 'La fecha de fin').getTime() + DAY_MS) : parseInstant(body.endTime, 'La fecha de fin');
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
