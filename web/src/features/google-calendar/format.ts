import type { GoogleEvent } from './api';

const DATE_TIME = new Intl.DateTimeFormat('es-ES', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const DATE_ONLY = new Intl.DateTimeFormat('es-ES', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

export function formatDateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}

/** Start of a Google event: its dateTime, or its date for an all-day event (spec: start.dateTime or start.date). */
export function formatEventStart(event: GoogleEvent): string {
  if (event.start.dateTime) return formatDateTime(event.start.dateTime);
  if (event.start.date) return `${DATE_ONLY.format(new Date(`${event.start.date}T00:00:00Z`))} · todo el día`;
  return '';
}

export const attendeeCount = (count: number) => (count === 1 ? '1 asistente' : `${count} asistentes`);
