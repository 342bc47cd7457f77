import type { EventBody } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import type { EventInput } from './event-record.js';
import { parseInstant } from './dates.js';

/** Longest event the forms accept: a typo in the year should not block a month of someone's calendar. */
const MAX_EVENT_MS = 31 * 86_400_000;

/** The spec's event form, checked: a title, real dates, the end after the start. */
export function eventInput(body: EventBody): EventInput {
  const title = body.title.trim();
  if (!title) throw badRequest('El título es requerido', 'TITLE_REQUIRED');
  const startTime = parseInstant(body.startTime, 'La fecha de inicio');
  const endTime = parseInstant(body.endTime, 'La fecha de fin');
  if (endTime.getTime() <= startTime.getTime()) throw badRequest('La fecha de fin debe ser posterior a la de inicio', 'END_BEFORE_START');
  if (endTime.getTime() - startTime.getTime() > MAX_EVENT_MS) throw badRequest('Un evento no puede durar más de 31 días', 'EVENT_TOO_LONG');
  const description = body.description?.trim();
  const location = body.location?.trim();
  return {
    title,
    startTime,
    endTime,
    ...(description !== undefined ? { description } : {}),
    ...(location !== undefined ? { location } : {}),
  };
}
