import type { TeamsMeeting } from './api';

/** Spec: scheduled = 'Programada', in-progress = 'En curso', otherwise 'Finalizada'. */
export function meetingStatusLabel(status: TeamsMeeting['status']): string {
  if (status === 'scheduled') return 'Programada';
  if (status === 'in-progress') return 'En curso';
  return 'Finalizada';
}

const dateTime = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit' });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTime.format(date);
}

/** Today's messages show the time only; older ones the date too. */
export function formatMessageTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toDateString() === now.toDateString() ? time.format(date) : dateTime.format(date);
}

/** Spec: attendees are comma-separated emails, split and trimmed. */
export const splitAttendees = (text: string) =>
  text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

const pad = (n: number) => String(n).padStart(2, '0');

/** A Date as a datetime-local value in the browser's zone. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** What a datetime-local value means in the browser's zone, as ISO text; null when it is no date. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
