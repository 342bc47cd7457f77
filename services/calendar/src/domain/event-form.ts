import type { EventBody } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import type { EventInput } from './event-record.js';
import { parseDay, parseInstant } from './dates.js';

const DAY_MS = 86_400_000;

/** Longest event the forms accept: a typo in the year should not block a month of someone's calendar. */
const MAX_EVENT_MS = 31 * 86_400_000;

/** The spec's event form, checked: a title, real dates, the end after the start. */
export function eventInput(body: EventBody): EventInput {
  const title = body.title.trim();
  if (!title) throw badRequest('El título es requerido', 'TITLE_REQUIRED');
  const allDay = body.allDay === true;
  const startTime = allDay ? parseDay(body.startTime, 'La fecha de inicio') : parseInstant(body.startTime, 'La fecha de inicio');
  // All-day: the form names the last day; Google's end is the day after it.
  const endTime = allDay ? new Date(parseDay(body.endTime, 'La fecha de fin').getTime() + DAY_MS) : parseInstant(body.endTime, 'La fecha de fin');
  if (endTime.getTime() <= startTime.getTime()) {
    throw allDay
      ? badRequest('La fecha de fin no puede ser anterior a la de inicio', 'END_BEFORE_START')
      : badRequest('La fecha de fin debe ser posterior a la de inicio', 'END_BEFORE_START');
  }
  if (endTime.getTime() - startTime.getTime() > MAX_EVENT_MS) throw badRequest('Un evento no puede durar más de 31 días', 'EVENT_TOO_LONG');
  const description = body.description?.trim();
  const location = body.location?.trim();
  return {
    title,
    startTime,
    endTime,
    ...(body.allDay !== undefined ? { allDay } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(location !== undefined ? { location } : {}),
  };
}
