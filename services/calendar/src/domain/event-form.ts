import type { EventBody } from '@asistente/contracts';
import { checkEventForm } from '@asistente/kit';
import type { EventInput } from './event-record.js';

/** The spec's event form, checked by the kit's one rule for every provider; Google's end is exclusive too. */
export function eventInput(body: EventBody): EventInput {
  const { start, end, allDay, ...rest } = checkEventForm(body);
  return { ...rest, startTime: start, endTime: end, ...(body.allDay !== undefined ? { allDay } : {}) };
}
