import type { GoogleCalendarEntry } from '@asistente/contracts';
import type { MirroredCalendar } from '../domain/mirror.repository.js';

export const toCalendarEntry = (c: MirroredCalendar): GoogleCalendarEntry => ({
  id: c.id,
  summary: c.summary,
  backgroundColor: c.backgroundColor,
  primary: c.primary,
});
